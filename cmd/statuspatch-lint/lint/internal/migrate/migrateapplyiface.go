package migrate

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// An apply of a configuration typed as an interface (runtime.ApplyConfiguration)
// names no kind, so no patcher: the finding says to use the concrete type's.
// When its options are not what apply mode sends, that is the fact that
// keeps it whatever the configuration holds, and the finding says so
// (template-operator's ssaStatus: an apply without client.ForceOwnership,
// which the server refuses with a conflict where another manager owns a
// field it sets, and which apply mode would send forced, taking them).

// ifaceApplyWhy says why an Apply of an interface-typed configuration
// cannot move onto apply mode whatever the configuration holds: its
// options, when apply mode does not send them. "" for another write.
func ifaceApplyWhy(pass *analysis.Pass, call *ast.CallExpr) string {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Apply" || len(call.Args) < 2 {
		return ""
	}
	t := pass.TypesInfo.TypeOf(call.Args[1])
	if t == nil || !types.IsInterface(t) {
		return ""
	}
	_, why := writeOptions{calls: &calls{pass: pass}, call: call, from: 2}.apply()
	if why == "" {
		return ""
	}
	return strings.Replace(why, "the apply", "the apply of "+types.ExprString(call.Args[1])+", a "+typeName(pass.Pkg, t)+",", 1)
}
