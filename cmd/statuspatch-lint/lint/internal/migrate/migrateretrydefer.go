package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// A deferred write's decision (issue 80, helper D's R4): the write in a
// deferred literal sends what the function decided before it returned,
// from the object as its read left it. Where that decision reads the
// object's status (if ship.Status.Token == "" { ship.Status.Token = ...
// }), the read is the cache's, maybe behind this process's last write:
// a Flush in the defer is refused as a conflict under a manager (the
// handwritten merge patch sent no lock), and the next reconcile decides
// again, a second token. When the decision is the function's last
// statements before its final return, reached on every path past the
// defer, and nothing else changes the object after the patcher is made,
// it moves into the deferred write's Retry (deferPlan): it ran just
// before the defer anyway, and on a conflict Retry decides again from
// the object it reads, a value handed out (tokens.Add) made once
// (migrateretryonce.go). Otherwise the write stays, naming the read.

// CachedDecision is what a kept write's reason says when its status is
// decided from a read the cache may hold behind this process's write: a
// lock on it would be refused as the Flush is, and the next reconcile
// would decide again: the lint adds none (analyzer.go).
const CachedDecision = "a Flush or a lock of it is refused as a conflict whenever that read is behind"

// deferDecision moves a deferred write's decision into its Retry
// (deferPlan), or says why the write stays: the status of its object
// read, other than to set it, between the patcher's anchor and the end
// of the function holding the defer, outside the deferred literal. ""
// when none is, or the decision moves.
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
	p, blocked := deferPlan(r, fn, lit, read, from)
	if p == nil {
		p, blocked = placedPlan(r, fn, lit, read, from) // migrateretrydeferplaced.go
	}
	if p != nil {
		r.retry = p
		return ""
	}
	why := fmt.Sprintf("its status is decided from %s's status read at %s, before the deferred write: under a manager that read may be the cache's, behind this process's last write: "+CachedDecision+", the next reconcile deciding again; %s; make the patcher after the read, the decision a %sPatcher.Retry at its place and the deferred literal's changes of %s the mutate of a Retry in the defer, by hand",
		r.obj.Name(), r.where(read.Pos()), blocked, r.obj.Name(), r.obj.Name())
	if call := outerCall(r, fn, lit, from); call != nil && !strings.Contains(blocked, "hands out") {
		why += fmt.Sprintf(" (the call %s at %s runs again on each attempt there: keep its result in a variable declared before Retry, set on the first attempt only)", types.ExprString(call.Fun), r.where(call.Pos()))
	}
	return r.shapeWhy(why)
}

// deferPlan is the deferred write's Retry: the statements of fn's body
// after the defer, up to its final return, that use the object, as
// mutate, when the read deciding is among them, every path past the
// defer reaches them (no return or branch between), they may run again
// (movable, no outer variable set, none of their names used after), and
// the object is only read elsewhere after the patcher's anchor, so the
// patcher holds it at the Retry. Else nil and why, in the reason's words.
func deferPlan(r retries, fn ast.Node, lit *ast.FuncLit, read ast.Node, from token.Pos) (*retryPlan, string) {
	const notLast = "the decision is not the function's last statements before its return, reached on every path past the defer"
	write := r.enclosingStmt()
	body := funcBody(fn)
	if write == nil || body == nil || !slices.Contains(lit.Body.List, write) {
		return nil, "the deferred write is not a statement of its literal"
	}
	for _, s := range lit.Body.List {
		if s == write {
			break
		}
		if usesObj(r, s) {
			return nil, "the deferred literal uses " + r.obj.Name() + " before its write"
		}
	}
	list := body.List
	d := slices.IndexFunc(list, func(s ast.Stmt) bool { return within(lit, s) })
	if d < 0 {
		return nil, "the defer is not a statement of the function's body"
	}
	end := len(list)
	if ret, ok := list[end-1].(*ast.ReturnStmt); ok {
		if usesObj(r, ret) {
			return nil, notLast
		}
		end--
	}
	k := end
	for k > d+1 && r.movable(list[k-1], write) && !exits(list[k-1]) {
		k--
	}
	for k < end && !usesObj(r, list[k]) {
		k++ // a head that does not touch the object runs before, once
	}
	if k == end || read.Pos() < list[k].Pos() {
		if k > d+1 && exits(list[k-1]) {
			return nil, notLastAt(r, notLast, list[k-1])
		}
		return nil, notLast
	}
	for _, s := range list[d+1 : k] {
		if exits(s) {
			return nil, notLastAt(r, notLast, s)
		}
	}
	return lastDecision(r, fn, list, d, k, end, from, write)
}

// lastDecision is the Retry of the decision list[k:end], the last
// statements of fn's body (the defer at d), detached from write, when
// the object is only read elsewhere after from, the decision's names
// stay in it, and what it sets and calls may run again (deferPlan's,
// placedBody's); else nil and why.
func lastDecision(r retries, fn ast.Node, list []ast.Stmt, d, k, end int, from token.Pos, write ast.Stmt) (*retryPlan, string) {
	for i, s := range list {
		if i == d || i >= k && i < end || s.End() <= from {
			continue
		}
		if !r.onlyRead(s, r.obj, s.Pos(), s.End(), map[*types.Func]bool{}) {
			return nil, fmt.Sprintf("%s is changed or read again at %s, outside the decision", r.obj.Name(), r.where(s.Pos()))
		}
	}
	p := &retryPlan{stmts: list[k:end], write: write, detached: true}
	probe := &retryPlan{stmts: p.stmts, write: p.stmts[len(p.stmts)-1]}
	if !r.scoped(probe) || r.capturesStatus(probe) {
		return nil, "the decision uses a name declared outside it from the status, or declares one used after it"
	}
	if why := outerWhy(r, p); why != "" {
		return nil, "its decision cannot move into Retry: " + why
	}
	once, why := onceCalls(r, fn, p.nodes())
	if why != "" {
		return nil, "its decision cannot move into Retry as written: " + why
	}
	p.once = once
	return p, ""
}

// funcBody is the body of fn, a declaration or a literal; nil: none.
func funcBody(fn ast.Node) *ast.BlockStmt {
	switch f := fn.(type) {
	case *ast.FuncDecl:
		return f.Body
	case *ast.FuncLit:
		return f.Body
	}
	return nil
}

// notLastAt is notLast naming s, a statement past the defer that may
// return or jump: on its path the decision is not run, or not whole.
func notLastAt(r retries, notLast string, s ast.Stmt) string {
	return fmt.Sprintf("%s: the statement at %s may return or jump", notLast, r.where(s.Pos()))
}

// usesObj reports whether n uses the object (or the base it is a copy of).
func usesObj(r retries, n ast.Node) bool {
	used := false
	ast.Inspect(n, func(x ast.Node) bool {
		if id, ok := x.(*ast.Ident); ok && !used {
			if v := r.pass.TypesInfo.Uses[id]; v != nil && (v == r.obj || v == r.copyOf) {
				used = true
			}
		}
		return !used
	})
	return used
}

// exits reports whether s may leave its function or jump (a return, a
// branch, a goto, a panic's call aside), outside function literals.
// Stricter than stopWhy, which lets mutate's return nil move: a
// deferred write's decision must be reached on every path.
func exits(s ast.Stmt) bool {
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt, *ast.BranchStmt, *ast.LabeledStmt:
			found = true
		}
		return !found
	})
	return found
}

// outerCall is the first call after from in fn, outside the deferred
// literal, with a side effect outside the function's code from there
// (a package's counter: tokens.Add(1); migrateonce.go), which a
// decision run again repeats; nil when there is none.
func outerCall(r retries, fn ast.Node, lit *ast.FuncLit, from token.Pos) *ast.CallExpr {
	s := &onceSpan{si: &r.site, where: r.where, fn: fn, from: from, to: fn.End(), held: []*types.Var{r.obj}}
	cur, ok := r.cursor(fn)
	if !ok {
		return nil
	}
	for c := range cur.Preorder((*ast.CallExpr)(nil)) {
		if call := c.Node().(*ast.CallExpr); call.Pos() >= from && !within(call, lit) && s.sideEffect(call) != "" {
			return call
		}
	}
	return nil
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
// writes or reads r.obj through a client after the position after
// (settles): a status change made before is that write's (whose own
// decision moves as a direct write's) or the read's, not the deferred
// write's.
func settledAfter(r retries, fn ast.Node, lit *ast.FuncLit, after token.Pos) bool {
	settled := false
	ast.Inspect(fn, func(n ast.Node) bool {
		if settled || n == ast.Node(lit) {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok && call.Pos() >= after && settles(r, call) {
			settled = true
		}
		return true
	})
	return settled
}

// settles reports whether call writes or reads r.obj through a client:
// its Get, Update or Patch (clientWrite), or its status subresource's
// Update, Patch or Apply; a method of another type of those names does
// not.
func settles(r retries, call *ast.CallExpr) bool {
	verb := r.clientWrite(call)
	if verb == "Delete" {
		verb = ""
	}
	if verb == "" && isStatusWrite(call) {
		if recv, ok := statusReceiver(call); ok && holdsClient(&r.calls, recv) {
			verb = "status"
		}
	}
	if verb == "" {
		return false
	}
	for _, a := range call.Args {
		if isObjExpr(r, a) {
			return true
		}
	}
	return false
}

// changesUnread reports whether body changes r.obj's status (an
// assignment to it, its address or the object given to a call other than
// a write or a read) and leaves the change unsettled: no client write
// or read of the object after the last change in body (settles; a change
// written there is that write's, whose own decision moves as a direct
// write's; one read again is the read's).
func changesUnread(r retries, body ast.Node) bool {
	changed := token.NoPos
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
			if settles(r, x) {
				return true
			}
			for _, a := range x.Args {
				if statusOf(r.pass, a, r.obj) || isObjExpr(r, a) {
					changed = max(changed, x.Pos())
				}
			}
		}
		return true
	})
	return changed.IsValid() && !settledAfter(r, body, nil, changed+1)
}

// isObjExpr reports whether e is r.obj or its address.
func isObjExpr(r retries, e ast.Expr) bool {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && r.pass.TypesInfo.Uses[id] == r.obj
}
