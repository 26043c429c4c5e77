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
		if read == nil && (id.Pos() < lit.Pos() || id.Pos() >= lit.End()) && readsStatusAt(r, stack, id, map[*types.Func]bool{}) && decides(r, fn, lit, stack) {
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

// decides reports whether a status read, the use at the end of stack (from
// fn), can decide what the deferred write sends: a read in a value
// assigned to a variable a later statement may use, declared, sent, in a
// nested function literal, a loop's header or a case's expression (all
// taken as deciding); in a value assigned to the object's status, or in
// the condition of an if or a switch's tag whose branch changes the
// status and neither writes nor reads the object after the change there,
// when fn does not write or read the object after it either
// (settledAfter). A read only logged or gating a branch whose
// change is written there (kubebuilder's tutorial: the first condition's
// Update, then the re-fetch) decides nothing the deferred write sends.
func decides(r retries, fn ast.Node, lit *ast.FuncLit, stack []ast.Node) bool {
	use := stack[len(stack)-1]
	unsettled := func(after token.Pos) bool { return !settledAfter(r, fn, lit, after) }
	for i := len(stack) - 2; i >= 1; i-- { // stack[0] is fn
		switch n := stack[i].(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if !statusOf(r.pass, l, r.obj) {
					return true // a variable a later statement may use
				}
			}
			return unsettled(n.End())
		case *ast.IncDecStmt:
			if !statusOf(r.pass, n.X, r.obj) {
				return true
			}
			return unsettled(n.End())
		case *ast.ValueSpec, *ast.SendStmt, *ast.FuncLit:
			return true
		case *ast.ForStmt:
			if n.Body == nil || !within(use, n.Body) {
				return true // its init, condition or post statement
			}
		case *ast.RangeStmt:
			if !within(use, n.Body) {
				return true
			}
		case *ast.CaseClause:
			for _, e := range n.List {
				if within(use, e) {
					return true
				}
			}
		case *ast.TypeSwitchStmt:
			if !within(use, n.Body) {
				return true
			}
		case *ast.IfStmt:
			if n.Init != nil && within(use, n.Init) {
				return true
			}
			if within(use, n.Cond) {
				return (changesUnread(r, n.Body) || n.Else != nil && changesUnread(r, n.Else)) && unsettled(n.End())
			}
		case *ast.SwitchStmt:
			if n.Init != nil && within(use, n.Init) || n.Tag != nil && within(use, n.Tag) {
				return changesUnread(r, n.Body) && unsettled(n.End())
			}
		}
	}
	return false
}

// settledAfter reports whether fn, outside the deferred literal lit,
// writes (Update, Patch) or reads (Get) r.obj after the position after:
// a status change made before is that write's (whose own decision moves
// as a direct write's) or the read's, not the deferred write's.
func settledAfter(r retries, fn ast.Node, lit *ast.FuncLit, after token.Pos) bool {
	settled := false
	ast.Inspect(fn, func(n ast.Node) bool {
		if settled || n == ast.Node(lit) {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok || call.Pos() < after {
			return true
		}
		sel, _ := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if sel == nil || sel.Sel.Name != "Get" && sel.Sel.Name != "Update" && sel.Sel.Name != "Patch" {
			return true
		}
		for _, a := range call.Args {
			if isObjExpr(r, a) {
				settled = true
			}
		}
		return true
	})
	return settled
}

// changesUnread reports whether body changes r.obj's status (an
// assignment to it, its address or the object given to a call other than
// a write or a read) and leaves the change unsettled: no Get, Update or
// Patch of the object after the last change in body (a change written
// there is that write's, whose own decision moves as a direct write's;
// one read again is the read's).
func changesUnread(r retries, body ast.Node) bool {
	changed, settled := token.NoPos, token.NoPos
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				if statusOf(r.pass, l, r.obj) {
					changed = max(changed, x.Pos())
				}
			}
		case *ast.IncDecStmt:
			if statusOf(r.pass, x.X, r.obj) {
				changed = max(changed, x.Pos())
			}
		case *ast.CallExpr:
			sel, _ := ast.Unparen(x.Fun).(*ast.SelectorExpr)
			settles := sel != nil && (sel.Sel.Name == "Get" || sel.Sel.Name == "Update" || sel.Sel.Name == "Patch")
			for _, a := range x.Args {
				switch {
				case settles && isObjExpr(r, a):
					settled = max(settled, x.Pos())
				case statusOf(r.pass, a, r.obj) || isObjExpr(r, a):
					changed = max(changed, x.Pos())
				}
			}
		}
		return true
	})
	return changed.IsValid() && settled < changed
}

// isObjExpr reports whether e is r.obj or its address.
func isObjExpr(r retries, e ast.Expr) bool {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && r.pass.TypesInfo.Uses[id] == r.obj
}
