package lint

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint/internal/migrate"
)

// The test files' calls are typed by checking them with their package's
// files against the packages the graph already holds, by import path: no
// second load of the test variant (go/packages with Tests would compile
// every test-only dependency again, kueue's most of all), and the
// module's packages are the graph's own, whose syntax and types give the
// bodies a call reaches (migrate.Callees). An import the graph lacks (a
// test-only one: testing, a fake client) is left unresolved: its names
// have no types, and a call through them is judged by its name as
// before (migrate.CallJudge's known false).

// moduleBodies indexes the graph's packages of the module loaded from
// source: their declarations, by function.
type moduleBodies struct {
	module string
	byPath map[string]*types.Package
	source map[*types.Package]*packages.Package
	decls  map[*types.Func]*ast.FuncDecl
}

func newModuleBodies(graph *checker.Graph, module string) *moduleBodies {
	b := &moduleBodies{module: module, byPath: map[string]*types.Package{}, source: map[*types.Package]*packages.Package{}, decls: map[*types.Func]*ast.FuncDecl{}}
	var roots []*packages.Package
	for act := range graph.All() {
		roots = append(roots, act.Package)
	}
	packages.Visit(roots, nil, func(p *packages.Package) {
		if p.Types == nil {
			return
		}
		b.byPath[p.PkgPath] = p.Types
		if p.TypesInfo != nil && len(p.Syntax) > 0 && b.inModule(p.PkgPath) {
			b.source[p.Types] = p
		}
	})
	return b
}

func (b *moduleBodies) inModule(path string) bool {
	return b.module != "" && (path == b.module || strings.HasPrefix(path, b.module+"/"))
}

// typed checks tests with act's package files, as its test variant:
// their calls' types, and the bodies they reach.
func (b *moduleBodies) typed(act *checker.Action, tests []*ast.File) migrate.CallJudge {
	pkg := act.Package
	info := &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{},
		Instances: map[*ast.Ident]types.Instance{}, Implicits: map[ast.Node]types.Object{},
	}
	conf := types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if imp, ok := pkg.Imports[path]; ok && imp.Types != nil {
				return imp.Types, nil
			}
			if p := b.byPath[path]; p != nil {
				return p, nil
			}
			return nil, fmt.Errorf("%s: not loaded", path)
		}),
		Error:       func(error) {}, // a test-only import: its names untyped
		FakeImportC: true,
	}
	variant, _ := conf.Check(pkg.PkgPath, pkg.Fset, append(slices.Clip(pkg.Syntax), tests...), info)
	own := map[*types.Func]*ast.FuncDecl{} // the test files' own functions
	for _, f := range tests {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if def, _ := info.Defs[fd.Name].(*types.Func); def != nil {
					own[def] = fd
				}
			}
		}
	}
	return migrate.NewCallJudge(pkg.Fset, info, func(fn *types.Func) (*ast.FuncDecl, *types.Info) {
		if d := own[fn.Origin()]; d != nil {
			return d, info
		}
		return b.body(act, variant, fn)
	})
}

// body is fn's declaration in the module and its package's types; fn
// of variant, the test variant, is the same function of act's package.
func (b *moduleBodies) body(act *checker.Action, variant *types.Package, fn *types.Func) (*ast.FuncDecl, *types.Info) {
	fn = fn.Origin()
	if variant != nil && fn.Pkg() == variant {
		fn = sameFunc(act.Package.Types, fn)
	}
	if fn == nil || fn.Pkg() == nil {
		return nil, nil
	}
	p := b.source[fn.Pkg()]
	if p == nil {
		return nil, nil
	}
	if d, ok := b.decls[fn]; ok {
		return d, p.TypesInfo
	}
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if def, _ := p.TypesInfo.Defs[fd.Name].(*types.Func); def != nil {
					b.decls[def] = fd
				}
			}
		}
	}
	d := b.decls[fn]
	if d == nil {
		return nil, nil
	}
	return d, p.TypesInfo
}

// sameFunc is pkg's function or method of fn's name and receiver type
// name (fn from another check of the package), or nil.
func sameFunc(pkg *types.Package, fn *types.Func) *types.Func {
	recv := fn.Signature().Recv()
	if recv == nil {
		f, _ := pkg.Scope().Lookup(fn.Name()).(*types.Func)
		return f
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return nil
	}
	tn, _ := pkg.Scope().Lookup(named.Obj().Name()).(*types.TypeName)
	if tn == nil {
		return nil
	}
	o, _, _ := types.LookupFieldOrMethod(types.NewPointer(tn.Type()), true, pkg, fn.Name())
	f, _ := o.(*types.Func)
	return f
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
