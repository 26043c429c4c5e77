package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// A deferred write's decision (issue 80, helper D's R4): the write in a
// deferred literal sends what the function decided before it returned,
// from the object as its read left it. Where that decision reads the
// object's status (if ship.Status.Token == "" { ship.Status.Token = ...
// }), the read is the cache's, maybe behind this process's last write:
// a Flush in the defer is refused as a conflict under a manager (the
// handwritten merge patch sent no lock), and the next reconcile decides
// again, a second token. The direct write's decision moves into Retry
// (migrateretry.go); the deferred one's spans the function to its
// returns, which mutate cannot run, so the write stays, naming the read
// and, where the decision calls a method of a variable outside the
// function (tokens.Add), that call, which Retry's function would repeat
// on every attempt.

// CachedDecision is what a kept deferred write's reason says: its status
// decided from a read the cache may hold behind this process's write. A
// lock on it would be refused as the Flush is, and the next reconcile
// would decide again: the lint adds none (analyzer.go).
const CachedDecision = "and a Flush in the defer is refused as a conflict"

// deferDecision says why a deferred write stays: the status of its object
// read, other than to set it, between the patcher's anchor and the end
// of the function holding the defer, outside the deferred literal. ""
// when none is.
func deferDecision(r retries) string {
	fn := r.enclosingFunc()
	var lit *ast.FuncLit
	for i, n := range r.path {
		if l, ok := n.(*ast.FuncLit); ok && deferredAt(r.path, i) {
			lit = l
			break
		}
	}
	if lit == nil || r.obj == nil {
		return ""
	}
	from := fn.Pos()
	if r.anchor != nil {
		from = r.anchor.End()
	}
	read := ast.Node(nil)
	r.eachUse(fn, r.obj, from, fn.End(), func(stack []ast.Node, id *ast.Ident) string {
		if read == nil && (id.Pos() < lit.Pos() || id.Pos() >= lit.End()) && readsStatusAt(r, stack, id, map[*types.Func]bool{}) {
			read = id
		}
		return ""
	})
	if read == nil {
		return ""
	}
	why := fmt.Sprintf("its status is decided from %s's status read at %s, before the deferred write: under a manager that read may be the cache's, behind this process's last write, "+CachedDecision+", the next reconcile deciding again; make the patcher after the read, keep the Flush in the defer, and move the decision into %sPatcher.Retry's function by hand",
		r.obj.Name(), r.where(read.Pos()), r.obj.Name())
	if call := outerCall(r, fn, lit, from); call != nil {
		why += fmt.Sprintf(" (the call %s at %s runs again on each attempt there: keep its result in a variable declared before Retry, set on the first attempt only)", types.ExprString(call.Fun), r.where(call.Pos()))
	}
	return r.shapeWhy(why)
}

// outerCall is the first call after from in fn, outside the deferred
// literal, of a method of a variable declared outside fn (a package's
// counter: tokens.Add(1)), a side effect a decision run again repeats;
// nil when there is none.
func outerCall(r retries, fn ast.Node, lit *ast.FuncLit, from token.Pos) *ast.CallExpr {
	var found *ast.CallExpr
	ast.Inspect(fn, func(n ast.Node) bool {
		if found != nil || n == ast.Node(lit) {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok || call.Pos() < from {
			return true
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if s := r.pass.TypesInfo.Selections[sel]; s == nil || s.Kind() != types.MethodVal {
			return true
		}
		if v := rootVar(r, sel.X); v != nil && (v.Pos() < fn.Pos() || v.Pos() >= fn.End()) && v != r.obj {
			found = call
		}
		return true
	})
	return found
}
