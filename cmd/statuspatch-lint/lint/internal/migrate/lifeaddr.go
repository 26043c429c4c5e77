package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// An object handed by address beside the code's patcher (issue 80, s102's
// review): mark(&order). Of a value object, &order is the object's
// pointer, the one the patcher holds: a callee that changes at most its
// status (the module's summary of it, checkCallee: its body in the
// package, a ParamsFact of another) keeps the patcher's hold, and the
// write moves; one that may do more (replace it whole: *o = v1.Widget{})
// ends it. Of the object's pointer variable, &order lets the callee point
// it at another object: that ends the hold. The kept reason names the
// hand-off, not an assignment the code does not make.

// handedAt is the call node n hands the object's address to, and that
// argument, when n is that call alone; nil otherwise.
func handedAt(l *life, n ast.Node) (*ast.CallExpr, *ast.UnaryExpr) {
	es, ok := n.(*ast.ExprStmt)
	if !ok {
		return nil, nil
	}
	call, ok := ast.Unparen(es.X).(*ast.CallExpr)
	if !ok {
		return nil, nil
	}
	for _, a := range call.Args {
		if u, ok := a.(*ast.UnaryExpr); ok && u.Op == token.AND && isVarOf(l, u.X) {
			return call, u
		}
	}
	return nil, nil
}

// isVarOf reports whether e is l's object's variable itself.
func isVarOf(l *life, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && l.si.pass.TypesInfo.Uses[id] == l.obj
}

// keepsHold reports whether the address u, an argument of call, leaves
// the patcher holding the object: the object is a value and the callee
// changes at most its status (l.callee, the module's summary).
func keepsHold(l *life, call *ast.CallExpr, u *ast.UnaryExpr) bool {
	if l.callee == nil || !valueObj(l.obj) {
		return false
	}
	ok, _ := l.callee(call, u)
	return ok
}

// handedWhy says how the hand-off at n ends the hold, for the kept
// reason; "" when n is no hand-off of the object's address.
func handedWhy(l *life, n ast.Node, where func(token.Pos) string) string {
	call, u := handedAt(l, n)
	if call == nil {
		return ""
	}
	callee := calleeName(l, call)
	if !valueObj(l.obj) {
		return fmt.Sprintf("handed by address to %s at %s, which may point %s at another object", callee, where(call.Pos()), l.obj.Name())
	}
	why := "which may change more than its status"
	if l.callee != nil {
		if _, w := l.callee(call, u); w != "" {
			why = strings.TrimSuffix(w, ".")
		}
	}
	return fmt.Sprintf("handed by address to %s at %s (%s)", callee, where(call.Pos()), why)
}

// calleeName names call's callee as the code writes it.
func calleeName(l *life, call *ast.CallExpr) string {
	if fn := kube.CalledFunc(l.si.pass, call); fn != nil {
		return fn.Name()
	}
	return "a function value"
}
