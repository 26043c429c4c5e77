package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// A write of an interface-typed parameter (cluster-api's patch helper:
// func (h *patchHelper) Patch(ctx, obj client.Object), called in
// Reconcile's defer with the object it read) is not of a *Kind variable,
// and -fix leaves it. The reason names the parameter, the calls of the
// package that pass it and what they pass, where the patcher goes.

// ifaceParamWhy is why the write of obj, an interface parameter of the
// declared function holding the write, stays: its callers in the package
// and what they pass; "" when obj is not one or no call passes it.
func ifaceParamWhy(m reads, obj *types.Var, kind string) string {
	if _, ok := obj.Type().Underlying().(*types.Interface); !ok {
		return ""
	}
	fd, ok := m.enclosingFunc().(*ast.FuncDecl)
	if !ok || m.paramOf(obj) == "" {
		return ""
	}
	fn, _ := m.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if fn == nil {
		return ""
	}
	index := -1
	i := 0
	for _, field := range fd.Type.Params.List {
		for _, n := range field.Names {
			if m.pass.TypesInfo.Defs[n] == obj {
				index = i
			}
			i++
		}
	}
	if index < 0 {
		return ""
	}
	var lines, args []string
	for _, f := range m.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || index >= len(call.Args) || kube.CalledFunc(m.pass, call) != fn {
				return true
			}
			arg := call.Args[index]
			text := types.ExprString(arg)
			if n := kube.NamedOf(m.pass.TypesInfo.TypeOf(arg)); n != nil {
				text += ", a *" + n.Obj().Name()
			}
			lines = append(lines, m.where(call.Pos()))
			args = append(args, text)
			return true
		})
	}
	if len(lines) == 0 {
		return ""
	}
	callers := "its caller at " + lines[0] + " passes " + args[0]
	reads := "the caller reads " + strings.SplitN(args[0], ",", 2)[0]
	if len(lines) > 1 {
		callers = "its callers at " + strings.Join(lines, ", ") + " pass " + strings.Join(args, "; ")
		reads = "each caller reads the object"
	}
	return fmt.Sprintf("%s is a %s parameter of %s, and %s: -fix moves the write of a *%s variable, not of an interface parameter; make New%s where %s and call its Flush(ctx) in place of that call",
		obj.Name(), types.TypeString(obj.Type(), func(p *types.Package) string { return p.Name() }), funcName(fn, m.pass.Pkg), callers, kind, m.patcherType, reads)
}
