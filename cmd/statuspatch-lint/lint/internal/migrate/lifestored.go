package migrate

import (
	"fmt"
	"go/ast"
)

// A status write renews the object only where it stored (issue 80, s102's
// review). A Flush that fails, or an Update, leaves the object as the
// code changed it, its status change unsent (patcher/flush.go): a base
// taken after it is not what the patcher holds, and a Retry there would
// refuse the change as pending (ErrPendingChanges) where the handwritten
// write after it sent both. So a write renews the object for the code
// after it only when the paths going on are those where it stored: it is
// returned, or its error is checked by an if whose body ends in a return
// (`if err := p.Flush(ctx); err != nil { return err }`, or `err := ...`
// then that if). `_ = p.Flush(ctx)`, a Flush alone, or an error only
// logged may go on with the change unsent: the object may have changed.
// A failed Retry leaves the object as the patcher holds it (its status
// is the base's, patcher/retry.go): a Retry renews it whatever its error.

// storedAfter reports whether the code going on after the write call
// runs only where it stored.
func (l *life) storedAfter(call *ast.CallExpr) bool {
	cur, ok := l.si.cursor(call)
	if !ok {
		return false
	}
	if _, ok := callStmt(cur).Node().(*ast.ReturnStmt); ok {
		return true
	}
	is := errCheck(l.si.pass, cur)
	return is != nil && is.Else == nil && terminates(is.Body)
}

// writeEvent is what a status write of the object, or a Flush or Retry
// of the code's patcher, does to it for the code after: renewed where
// that code runs only when it stored (a Retry always), else changed.
func (l *life) writeEvent(call *ast.CallExpr, retry bool) event {
	if retry || l.storedAfter(call) {
		return renewed
	}
	return changed
}

// unstoredWhy says why the object is not what the patcher holds after
// the node at, a write of it that may go on unstored; "" for another.
func unstoredWhy(r retries, at ast.Node) string {
	if at == nil {
		return ""
	}
	why := ""
	ast.Inspect(at, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || why != "" {
			return why == "" && !isFuncLit(n)
		}
		sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		via := isSel && r.via != nil && sel.Sel.Name == "Flush" && identOf(r.pass, sel.X) == r.via
		if via || len(call.Args) >= 2 && isStatusWrite(call) && identOf(r.pass, call.Args[1]) == r.obj {
			why = fmt.Sprintf("the write at %s does not return its error: when it fails the code goes on with %s's change unsent, which Retry would refuse as pending", r.where(call.Pos()), r.obj.Name())
		}
		return why == ""
	})
	return why
}

func isFuncLit(n ast.Node) bool {
	_, ok := n.(*ast.FuncLit)
	return ok
}
