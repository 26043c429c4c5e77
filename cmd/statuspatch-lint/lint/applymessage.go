package lint

import (
	"go/ast"
	"go/types"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/analysis"
)

// unknownOwner stands for the field owner in the advice of an apply that
// names none.
const unknownOwner = "<your field owner>"

// applyModeAdvice is what the finding of a handwritten status apply adds
// to the patcher it names: the patcher's apply mode and the field owner
// the apply carries (patcher.WithFieldOwner takes a string; apply mode
// always forces ownership), "" for a write that is not an apply. An apply
// is Apply(ctx, cfg, opts...) of an apply configuration, typed or
// unstructured (client.ApplyConfigurationFromUnstructured), or
// Patch(ctx, obj, client.Apply, opts...).
func applyModeAdvice(pass *analysis.Pass, call *ast.CallExpr, w *write) string {
	if call == nil || w.generated {
		return ""
	}
	from := 0
	switch {
	case w.verb == "Apply" && len(call.Args) >= 2:
		from = 2
	case w.verb == "Patch" && len(call.Args) >= 3 && isClientObject(pass, call.Args[2], "Apply"):
		from = 3
	default:
		return ""
	}
	owner := unknownOwner
	for _, a := range call.Args[from:] {
		if c, ok := ast.Unparen(a).(*ast.CallExpr); ok && len(c.Args) == 1 && isClientObject(pass, c.Fun, "FieldOwner") {
			owner = types.ExprString(c.Args[0])
			break
		}
		if n := kube.NamedOf(pass.TypesInfo.TypeOf(a)); n != nil && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == kube.ClientPkgPath && n.Obj().Name() == "FieldOwner" {
			owner = "string(" + types.ExprString(a) + ")"
			break
		}
	}
	return ", in apply mode: patcher.WithWriteMode(patcher.WriteApply) and patcher.WithFieldOwner(" + owner + ")"
}

// isClientObject reports whether e names the controller-runtime client
// package's object name (client.Apply, client.FieldOwner).
func isClientObject(pass *analysis.Pass, e ast.Expr, name string) bool {
	var id *ast.Ident
	switch e := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		id = e.Sel
	case *ast.Ident:
		id = e
	default:
		return false
	}
	obj := pass.TypesInfo.Uses[id]
	return obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == kube.ClientPkgPath && obj.Name() == name
}
