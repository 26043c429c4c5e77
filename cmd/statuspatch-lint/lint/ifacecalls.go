package lint

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint/internal/migrate"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// Unseen says why a method named name may be declared where the graph
// did not analyze: a file of the module not in seen (a test file, a
// package not analyzed, a file of other build tags); "" when none is.
type Unseen func(name string, seen map[string]bool) string

// ResolveIfaceCalls resolves the interface calls the fixes of a graph
// ModuleAnalyzer analyzed assume (migrate.IfaceCall): a fix stays when
// every type of the module mod that implements the interface has a
// method that changes at most the status of the object it is given,
// by its ParamsFact, and unseen finds no declaration of that method the
// graph did not load; else the fix goes and the finding names the
// implementation that keeps it.
func ResolveIfaceCalls(graph *checker.Graph, mod string, unseen Unseen) {
	dropped := map[token.Pos]string{}
	for _, act := range graph.Roots {
		res, ok := act.Result.(*Result)
		if !ok {
			continue
		}
		for _, m := range res.Members {
			if m.Calls == nil {
				continue
			}
			i := slices.IndexFunc(act.Diagnostics, func(d analysis.Diagnostic) bool { return d.Pos == m.Pos && len(d.SuggestedFixes) == 1 })
			if i < 0 {
				continue
			}
			for _, c := range m.Calls {
				if why := implsWhy(graph, mod, unseen, c); why != "" {
					d := &act.Diagnostics[i]
					d.Message += " (not moved to the patcher: " + why + ")"
					d.SuggestedFixes = nil
					dropped[d.Pos] = why
					break
				}
			}
		}
	}
	if len(dropped) > 0 {
		regroup(graph, dropped) // groups.go
	}
}

// inModule reports whether the package path p is of the module mod.
func inModule(p, mod string) bool {
	return p == mod || strings.HasPrefix(p, mod+"/")
}

// implsWhy says which implementation of c's method in the module may
// change more than the status of the object, or may not be seen; "" when
// none.
func implsWhy(graph *checker.Graph, mod string, unseen Unseen, c migrate.IfaceCall) string {
	acts := map[*packages.Package]*checker.Action{}
	for act := range graph.All() {
		acts[act.Package] = act
	}
	seen := map[string]bool{}
	var whys []string
	found := false
	for pkg := range reachable(graph) {
		if !inModule(pkg.PkgPath, mod) {
			if why := outsideImpl(pkg, c); why != "" {
				whys = append(whys, why)
			}
			// A package of another module that imports this one (a
			// module cycle) could implement it: not followed.
			for p := range pkg.Imports {
				if inModule(p, mod) {
					whys = append(whys, fmt.Sprintf("%s, and package %s, of another module, imports %s and may implement it", c.Use(), pkg.PkgPath, p))
				}
			}
			continue
		}
		if len(pkg.GoFiles) == 0 && len(pkg.CompiledGoFiles) == 0 {
			// Only test files (spark-operator's test/drift, drift_test.go)
			// or files of other build tags, which unseen looks into: no
			// type of a program of the module is declared here.
			continue
		}
		act := acts[pkg]
		if act == nil || pkg.Types == nil || pkg.TypesInfo == nil || len(pkg.Syntax) == 0 || act.Err != nil {
			whys = append(whys, fmt.Sprintf("%s, and package %s, of the module, is not analyzed from source", c.Use(), pkg.PkgPath))
			continue
		}
		for _, f := range pkg.Syntax {
			seen[pkg.Fset.File(f.Pos()).Name()] = true
		}
		for _, obj := range pkg.TypesInfo.Defs {
			tn, ok := obj.(*types.TypeName)
			if !ok || tn.IsAlias() {
				continue
			}
			why, impl := implWhy(act, mod, tn, c)
			found = found || impl
			if why != "" {
				whys = append(whys, why)
			}
		}
	}
	if len(whys) > 0 {
		slices.Sort(whys)
		return whys[0]
	}
	if !found {
		return fmt.Sprintf("%s, and no type of the module that implements it is seen", c.Use())
	}
	if why := unseen(c.Method, seen); why != "" {
		return fmt.Sprintf("%s, and %s", c.Use(), why)
	}
	return ""
}

// reachable is every package of the graph's roots and their imports.
func reachable(graph *checker.Graph) map[*packages.Package]bool {
	all := map[*packages.Package]bool{}
	var visit func(p *packages.Package)
	visit = func(p *packages.Package) {
		if p == nil || all[p] {
			return
		}
		all[p] = true
		for _, imp := range p.Imports {
			visit(imp)
		}
	}
	for _, act := range graph.Roots {
		visit(act.Package)
	}
	return all
}

// implWhy says why the type tn, if it implements c's interface, keeps
// the write: its method may change more than the status, or has no
// summary; "" when it does not implement it or only reads.
func implWhy(act *checker.Action, mod string, tn *types.TypeName, c migrate.IfaceCall) (why string, impl bool) {
	t := tn.Type()
	head := c.Use() + ", which runs"
	if n, ok := t.(*types.Named); ok && n.TypeParams().Len() > 0 {
		if c.Declares(t) {
			return fmt.Sprintf("%s any implementation: the generic type %s declares %s, which -fix does not match", head, tn.Name(), c.Method), true
		}
		return "", false
	}
	f := c.Implements(t)
	if f == nil {
		return "", false
	}
	name := tn.Pkg().Path() + "." + tn.Name() + "." + c.Method
	if f.Pkg() == nil || !inModule(f.Pkg().Path(), mod) {
		return fmt.Sprintf("%s %s, of a package outside the module", head, name), true
	}
	var fact migrate.ParamsFact
	if !act.ObjectFact(f.Origin(), &fact) {
		return fmt.Sprintf("%s %s, which has no summary of what it does to it", head, name), true
	}
	if ok, why := c.Leaves(&fact); !ok {
		if why == "" {
			why = "it may change more than its status"
		}
		return fmt.Sprintf("%s %s: %s", head, name, why), true
	}
	return "", true
}

// outsideImpl says which type of pkg, of another module, implements c's
// interface, for a call on the object (migrate.IfaceCall.OnObject),
// whose method's signature need not name a type of the module: a value
// of that type may be the object there; "" when none does or c is not
// one.
func outsideImpl(pkg *packages.Package, c migrate.IfaceCall) string {
	if !c.OnObject() || pkg.Types == nil {
		return ""
	}
	scope := pkg.Types.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		if c.Implements(tn.Type()) != nil {
			return fmt.Sprintf("%s, which runs %s.%s.%s, of a package outside the module", c.Use(), pkg.PkgPath, name, c.Method)
		}
	}
	return ""
}
