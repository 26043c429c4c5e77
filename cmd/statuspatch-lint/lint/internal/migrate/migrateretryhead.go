package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// The head of a decision (issue 80: a decision computed from status moves
// into Retry's function, so that a 409 decides again). Retry's mutate
// holds the statements right before the write back to the first one that
// cannot run in it (a return, a break, a labelled continue, a call taking
// a context): a status read before that one, such as `if ro.Status.Plan
// != nil { return }` or the `if` or `case` around the write, stays out of
// mutate, and on a conflict Retry would decide again from the fresh read
// without it: it rebuilds the plan another reconcile stored, or moves a
// phase the other writer has moved on. The handwritten write returned the
// 409 and the next reconcile checked again. Such a decision is not moved
// into Retry: the write is a Flush (the same 409), or, for a List item,
// whose cached copy a Flush must not write, it stays, naming the read.

// headWhy says why the decision p cannot move into Retry when the
// object's status is read between where the patcher last holds the
// object as read (its anchor, the Get, a re-read) and the decision's
// start; "" when it is not, or when p, a List item's decision or a
// merge patch's right after its base, takes that read in with its head
// (itemHead, lateHead, which extend p).
func headWhy(r retries, p *retryPlan) string {
	why := headRead(r, p)
	if why != "" && (itemHead(r, p) || lateHead(r, p)) { // migrateretrybasehead.go
		return ""
	}
	return why
}

// headRead is headWhy without itemHead's extension.
func headRead(r retries, p *retryPlan) string {
	start := p.stmts[0].Pos()
	if p.guard != nil {
		start = p.guard.Pos() // the if moves whole, its condition too
	}
	from := token.NoPos
	// Where the object was last read: a Get, a copy of a read, its
	// definition or assignment (a List item), a re-read made a Fetch. A
	// merge patch's anchor is its base, where the patcher its writes
	// share may not be made: the decision starts at the read.
	points := []ast.Stmt{r.getCheck, r.get}
	if r.keep {
		points = append(points, r.anchor)
	}
	rd := r.reads()
	lists := r.enclosingLists()
	for _, l := range lists {
		for i, s := range l {
			if s.End() > start {
				break
			}
			if rd.isGetStmt(s) || rd.copyOfRead(l, i) || assignsVar(r, s, r.obj) || lockedWrite(r, s) {
				points = append(points, s)
			}
		}
	}
	// A re-read made a Fetch counts where it runs on every path to the
	// decision: in a block enclosing it, not in a branch before it (the
	// tutorial's `if` that writes Unknown and reads again), whose other
	// path comes from an earlier read.
	onEveryPath := func(s ast.Stmt) bool {
		for _, l := range lists {
			if slices.Contains(l, s) {
				return true
			}
		}
		return false
	}
	for _, f := range append([]*fetchPlan{r.fetch}, r.rereads...) {
		if f != nil && onEveryPath(f.get) {
			points = append(points, f.get)
			if f.ifStmt != nil {
				points = append(points, f.ifStmt)
			}
		}
	}
	for _, s := range points {
		if s != nil && s.End() <= start && s.End() > from {
			from = s.End()
		}
	}
	if !from.IsValid() && r.anchor != nil && r.anchor.End() <= start {
		from = r.anchor.End()
	}
	if !from.IsValid() {
		return ""
	}
	at := statusReadAt(r, from, start)
	if !at.IsValid() {
		return ""
	}
	return fmt.Sprintf("%s's status is read at %s, before the decision, and that read would stay outside Retry's function, which on a conflict decides again from a fresh read without it", r.obj.Name(), r.where(at))
}

// statusReadAt is where the object's status is first read from from to
// to, outside function literals; NoPos when it is not.
func statusReadAt(r retries, from, to token.Pos) token.Pos {
	at := token.NoPos
	r.eachUse(r.enclosingFunc(), r.obj, from, to, func(stack []ast.Node, id *ast.Ident) string {
		for _, n := range stack[1:] {
			if _, ok := n.(*ast.FuncLit); ok {
				return "" // a literal's body runs where it is called, not here
			}
		}
		if !sealedRead(r, stack, to) && readsStatusAt(r, stack, id, map[*types.Func]bool{}) { // migrateretrysealed.go
			at = id.Pos()
			return "found"
		}
		return ""
	})
	return at
}

// lockedWrite reports whether s is a locked status write of the object:
// a write moving onto the patcher (r.moved), or a Flush or Retry of the
// code's patcher (r.via), alone or as an if's init. Once it stored, the
// object is what the server holds, and what was read before it was
// still so when it stored (its lock): a read from there on is the head.
func lockedWrite(r retries, s ast.Stmt) bool {
	call := stmtCall(s) // migratedeferheld.go
	if call == nil {
		return false
	}
	if r.moved[call] {
		return true
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && r.via != nil && (sel.Sel.Name == "Flush" || sel.Sel.Name == "Retry") && identOf(r.pass, sel.X) == r.via
}

// assignsVar reports whether s is an assignment whose left side is v.
func assignsVar(r retries, s ast.Stmt, v *types.Var) bool {
	as, ok := s.(*ast.AssignStmt)
	if !ok {
		return false
	}
	for _, l := range as.Lhs {
		if id, ok := ast.Unparen(l).(*ast.Ident); ok && (r.pass.TypesInfo.Defs[id] == v || r.pass.TypesInfo.Uses[id] == v) {
			return true
		}
	}
	return false
}

// itemBase reports whether s is a List item's base taken with nothing
// changed since the item was taken (the anchor the item's Fetch replaces,
// migrateitemfetch.go): a decision's head before it, such as the guard
// `if m.Status.Ready != ready { base := m.DeepCopy(); ...; write }`, reads
// the item as the Fetch's patcher holds it, and moves into Retry's
// function with the decision (issue 80, U2's r3).
func itemBase(r retries, s ast.Stmt) bool {
	return r.item && s == r.anchor && r.baseVar != nil
}

// itemGuardFresh reports whether the guard g's body starts with the
// item's base (itemBase) and the item is there as it was taken: nothing
// changed it between its definition and the base, so the guard's
// condition reads what the Fetch made at the base holds.
func itemGuardFresh(r retries, g *ast.IfStmt) bool {
	if len(g.Body.List) == 0 || !itemBase(r, g.Body.List[0]) {
		return false
	}
	def, _ := r.definition(r.obj)
	l := newLife(&r.site, r.obj)
	if def == nil || l == nil {
		return false
	}
	l.made = def
	return l.freshAt(cfgNode(g.Body.List[0]))
}
