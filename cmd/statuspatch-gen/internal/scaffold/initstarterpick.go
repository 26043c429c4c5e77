package scaffold

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

// The starter test is written for one kind: the first in PROJECT with an
// API and a controller whose reconciler writes a status (a Status()
// writer called in one of its methods), else the first with both.
// kubebuilder's multigroup sample lists Captain first, whose Reconcile is
// the scaffold's TODO: a test of it exercised nothing, while Memcached's
// status writes went untested.

// starterResource is the resource starterTest writes the test for; nil
// when none has an API and a controller.
func starterResource(dir string, p *kbProject) *kbResource {
	var first *kbResource
	for i := range p.Resources {
		res := &p.Resources[i]
		if res.API == nil || !res.Controller && len(res.Controllers) == 0 || res.External || res.Core || res.Kind == "" || res.Path == "" {
			continue
		}
		if first == nil {
			first = res
		}
		if ctrlDir := p.controllerDir(*res); ctrlDir != "" && writesStatus(filepath.Join(dir, filepath.FromSlash(ctrlDir)), res.Kind+"Reconciler") {
			return res
		}
	}
	return first
}

// writesStatus reports whether a method of the type recv, declared in the
// folder dir, calls Status() (r.Status().Update, r.Client.Status().Patch).
func writesStatus(dir, recv string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Recv == nil || len(fd.Recv.List) != 1 || typeName(fd.Recv.List[0].Type) != recv {
				continue
			}
			found := false
			ast.Inspect(fd.Body, func(x ast.Node) bool {
				if call, ok := x.(*ast.CallExpr); ok && len(call.Args) == 0 {
					if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Status" {
						found = true
					}
				}
				return !found
			})
			if found {
				return true
			}
		}
	}
	return false
}
