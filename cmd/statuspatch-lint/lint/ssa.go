package lint

import (
	"go/ast"
	"go/types"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// buildSSA builds the package's SSA form the way the buildssa pass does,
// returning its source functions (closures included).
//
// The analyzer does not Require buildssa: because it has facts, drivers
// run it on every dependency, and buildssa would then build SSA for all
// of k8s.io/api and the standard library. Building it here, only for
// packages that can reach the controller-runtime client, makes a run on
// a controller package several times faster and lighter.
func buildSSA(pass *analysis.Pass) []*ssa.Function {
	prog := ssa.NewProgram(pass.Fset, ssa.BuilderMode(0))
	for _, p := range pass.Pkg.Imports() {
		prog.CreatePackage(p, nil, nil, true)
	}
	pkg := prog.CreatePackage(pass.Pkg, pass.Files, pass.TypesInfo, false)
	pkg.Build()

	var funcs []*ssa.Function
	var add func(f *ssa.Function)
	add = func(f *ssa.Function) {
		funcs = append(funcs, f)
		for _, anon := range f.AnonFuncs {
			add(anon)
		}
	}
	for _, file := range pass.Files {
		for _, decl := range file.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			if f := prog.FuncValue(fn); f != nil {
				add(f)
			}
		}
	}
	return funcs
}

// reachesClient reports whether pkg imports the controller-runtime client
// package, directly or not. Only such packages can write status.
func reachesClient(pkg *types.Package) bool {
	seen := map[*types.Package]bool{}
	var walk func(p *types.Package) bool
	walk = func(p *types.Package) bool {
		if p.Path() == kube.ClientPkgPath {
			return true
		}
		if seen[p] {
			return false
		}
		seen[p] = true
		for _, imp := range p.Imports() {
			if walk(imp) {
				return true
			}
		}
		return false
	}
	return walk(pkg)
}
