package lint

import (
	"fmt"
	"go/types"
	"slices"
	"sort"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/analysis"
)

const patcherSuffix = "StatusPatcher"

// patchersFact lists the <Kind>StatusPatcher types a package declares, so
// that packages importing it (directly or not) can suggest them.
type patchersFact struct {
	Patchers []patcherInfo
}

// patcherInfo describes one generated <Kind>StatusPatcher type.
type patcherInfo struct {
	Kind      string // Widget
	Type      string // WidgetStatusPatcher
	Pkg       string // package declaring the patcher
	ObjectPkg string // package of the object type, "" if unknown
	// Into: the package declares Fetch<Kind>StatusPatcherInto, which
	// reads into the caller's object (generators before it do not).
	Into bool
}

// AFact marks patchersFact as an analysis fact.
func (*patchersFact) AFact() {}

func (f *patchersFact) String() string {
	names := make([]string, len(f.Patchers))
	for i, p := range f.Patchers {
		names[i] = p.Type
	}
	return "patchers(" + strings.Join(names, ", ") + ")"
}

// exportPatchers exports a patchersFact for the package if it declares
// any <Kind>StatusPatcher type.
func exportPatchers(pass *analysis.Pass) {
	if ps := scanPatchers(pass.Pkg); len(ps) > 0 {
		pass.ExportPackageFact(&patchersFact{Patchers: ps})
	}
}

// scanPatchers lists the <Kind>StatusPatcher struct types in pkg's scope.
// The object package comes from the New<Kind>StatusPatcher constructor's
// object parameter, or the Object() method's result.
func scanPatchers(pkg *types.Package) []patcherInfo {
	var ps []patcherInfo
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		kind, ok := strings.CutSuffix(name, patcherSuffix)
		if !ok || kind == "" {
			continue
		}
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || !tn.Exported() {
			continue
		}
		if _, isStruct := tn.Type().Underlying().(*types.Struct); !isStruct {
			continue
		}
		ps = append(ps, patcherInfo{Kind: kind, Type: name, Pkg: pkg.Path(), ObjectPkg: patcherObjectPkg(scope, tn), Into: hasFetchInto(scope, tn)})
	}
	return ps
}

// hasFetchInto reports whether scope declares Fetch<Kind>StatusPatcherInto
// for the patcher tn, as statuspatch-gen writes it: its fourth parameter
// the object New<Kind>StatusPatcher takes, its first result tn's pointer.
func hasFetchInto(scope *types.Scope, tn *types.TypeName) bool {
	fn, ok := scope.Lookup("Fetch" + tn.Name() + "Into").(*types.Func)
	nw, ok2 := scope.Lookup("New" + tn.Name()).(*types.Func)
	if !ok || !ok2 {
		return false
	}
	sig, nsig := fn.Signature(), nw.Signature()
	return sig.Params().Len() >= 4 && nsig.Params().Len() >= 2 && sig.Results().Len() == 2 &&
		types.Identical(sig.Params().At(3).Type(), nsig.Params().At(1).Type()) &&
		types.Identical(sig.Results().At(0).Type(), types.NewPointer(tn.Type()))
}

func patcherObjectPkg(scope *types.Scope, tn *types.TypeName) string {
	if fn, ok := scope.Lookup("New" + tn.Name()).(*types.Func); ok {
		params := fn.Signature().Params()
		if params.Len() >= 2 {
			if n := kube.NamedOf(params.At(1).Type()); n != nil && n.Obj().Pkg() != nil {
				return n.Obj().Pkg().Path()
			}
		}
	}
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(tn.Type()), false, tn.Pkg(), "Object")
	if m, ok := obj.(*types.Func); ok && m.Signature().Results().Len() == 1 {
		if n := kube.NamedOf(m.Signature().Results().At(0).Type()); n != nil && n.Obj().Pkg() != nil {
			return n.Obj().Pkg().Path()
		}
	}
	return ""
}

// findPatcherIn returns the generated patcher for kind k, looking in the
// object's own package first, then in the facts of every package of the
// program visible to this pass, then in the patchers given to the analyzer
// (-patchers).
func findPatcherIn(pass *analysis.Pass, k kind, given []patcherInfo) (patcherInfo, bool) {
	var cands []patcherInfo
	if k.pkg != nil {
		cands = append(cands, scanPatchers(k.pkg)...)
	}
	for _, pf := range pass.AllPackageFacts() {
		if f, ok := pf.Fact.(*patchersFact); ok {
			cands = append(cands, f.Patchers...)
		}
	}
	cands = append(cands, given...)
	objPkg := ""
	if k.pkg != nil {
		objPkg = k.pkg.Path()
	}
	var match []patcherInfo
	for _, c := range cands {
		if c.Kind == k.name && (c.ObjectPkg == "" || objPkg == "" || c.ObjectPkg == objPkg) && importable(pass.Pkg.Path(), c.Pkg) {
			match = append(match, c)
		}
	}
	if len(match) == 0 {
		return patcherInfo{}, false
	}
	imports := func(path string) bool {
		return slices.ContainsFunc(pass.Pkg.Imports(), func(p *types.Package) bool { return p.Path() == path })
	}
	sort.SliceStable(match, func(i, j int) bool {
		a, b := match[i], match[j]
		if (a.Pkg == objPkg) != (b.Pkg == objPkg) {
			return a.Pkg == objPkg
		}
		if (a.ObjectPkg == objPkg) != (b.ObjectPkg == objPkg) {
			return a.ObjectPkg == objPkg
		}
		if imports(a.Pkg) != imports(b.Pkg) {
			return imports(a.Pkg) // the one the package already uses
		}
		// A monorepo's operators each with their own patchers of one
		// API: the one nearest the package in the tree.
		if na, nb := sharedPrefix(pass.Pkg.Path(), a.Pkg), sharedPrefix(pass.Pkg.Path(), b.Pkg); na != nb {
			return na > nb
		}
		return a.Pkg < b.Pkg
	})
	return match[0], true
}

// importable reports whether the package from may import path under Go's
// rule for internal directories: a path with an internal element is
// importable only from the tree rooted at that element's parent (the last
// such element, the narrowest).
func importable(from, path string) bool {
	elems := strings.Split(path, "/")
	i := len(elems) - 1
	for i >= 0 && elems[i] != "internal" {
		i--
	}
	if i < 0 {
		return true
	}
	parent := strings.Join(elems[:i], "/")
	return parent == "" || from == parent || strings.HasPrefix(from, parent+"/")
}

// sharedPrefix is the number of leading path elements a and b share.
func sharedPrefix(a, b string) int {
	ea, eb := strings.Split(a, "/"), strings.Split(b, "/")
	n := 0
	for n < len(ea) && n < len(eb) && ea[n] == eb[n] {
		n++
	}
	return n
}

// handwrittenMessage is the finding of a handwritten status write: which
// patcher to use, or to generate, in one sentence. apply is what an apply
// adds (applyModeAdvice: apply mode and the field owner), "" for others.
func handwrittenMessage(pass *analysis.Pass, k kind, given []patcherInfo, apply string) string {
	if k.iface {
		// Never a <Kind>StatusPatcher named after an interface.
		what := k.name
		if what != unknownKind {
			what += " (an interface)"
		}
		return fmt.Sprintf("handwritten status write to %s: use the generated status patcher of the object's concrete type%s", what, apply)
	}
	if p, ok := findPatcherIn(pass, k, given); ok {
		// From the program, or generated but not imported by this
		// package yet (given by the command, which looks on disk).
		return fmt.Sprintf("handwritten status write to %s: use %s (%s)%s", k.name, p.Type, p.Pkg, apply)
	}
	return fmt.Sprintf("handwritten status write to %s: generate %s %s%s with statuspatch-gen%s", k.name, article(k.name), k.name, patcherSuffix, apply)
}

// foreignWithoutPatcher reports whether k is a kind of another module (the
// built-in kinds of k8s.io/api, whose status envtest's test helpers set
// by hand) for which the project generates no patcher: no handwritten
// write of the default mode, which moves writes onto generated patchers
// (diagnose). Without the module's path (a GOPATH
// build), the kinds of k8s.io/ are the foreign ones.
func foreignWithoutPatcher(pass *analysis.Pass, k kind, given []patcherInfo) bool {
	pkg := k.pkg
	if pkg == nil {
		pkg = k.acPkg // client-go's apply configurations are of another module too
	}
	if k.iface || pkg == nil {
		return false
	}
	if _, ok := findPatcherIn(pass, k, given); ok {
		return false
	}
	if pass.Module != nil && pass.Module.Path != "" {
		return !withinModule(pkg.Path(), pass.Module.Path)
	}
	return strings.HasPrefix(pkg.Path(), "k8s.io/")
}

// withinModule reports whether a package path belongs to module mod.
func withinModule(path, mod string) bool {
	return path == mod || strings.HasPrefix(path, mod+"/")
}

// article is the indefinite article before name: "an" before a vowel.
func article(name string) string {
	if name != "" && strings.ContainsRune("AEIOUaeiou", rune(name[0])) {
		return "an"
	}
	return "a"
}

// parsePatchers parses the -patchers flag: comma-separated
// <object package>.<Kind>=<patcher package> entries, each ending :into
// when the package declares Fetch<Kind>StatusPatcherInto (an import path
// has no colon).
func parsePatchers(s string) ([]patcherInfo, error) {
	var ps []patcherInfo
	for _, e := range strings.Split(s, ",") {
		if e = strings.TrimSpace(e); e == "" {
			continue
		}
		obj, pkg, ok := strings.Cut(e, "=")
		pkg, into, _ := strings.Cut(pkg, ":")
		i := strings.LastIndexByte(obj, '.') // none: the object's package is not known
		if !ok || i == 0 || i == len(obj)-1 || pkg == "" || strings.Contains(obj[i+1:], "/") || into != "" && into != "into" {
			return nil, fmt.Errorf("statuspatch: -patchers entry %q: want <object package>.<Kind>=<patcher package>, or ...=<patcher package>:into", e)
		}
		ps = append(ps, patcherInfo{Kind: obj[i+1:], Type: obj[i+1:] + patcherSuffix, Pkg: pkg, ObjectPkg: obj[:max(i, 0)], Into: into != ""})
	}
	return ps, nil
}
