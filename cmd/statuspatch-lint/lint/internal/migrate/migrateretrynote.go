package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
)

// A write whose decision reads the status but cannot move into Retry
// (issue 80: "-fix prints what it did to each finding") is a Flush with
// its decision before it, as the handwritten write had it: under a
// manager a refused Flush returns the 409 as the write did, and the next
// reconcile decides again. The fix's message says so, naming the lines
// the decision stays on and what keeps it out of Retry's function.

// flushNote is what a plain Flush's message adds for a write of the
// function's own object whose decision, read from its status, stays
// before the Flush; "" for a write whose decision moved or reads no
// status, or that is no such write (a helper's, an apply, a deferred
// write, a List item, which say their own).
func flushNote(m *migration) string {
	return decisionNote(m, nil, nil)
}

// codeLifeNote is flushNote for a write that becomes a Flush of the
// patcher the code made at made (lifepatcher.go) because its decision
// did not move into that patcher's Retry (liferetry.go): kept says what
// keeps it there when the classifier's checks below do not.
func codeLifeNote(m *migration, made ast.Stmt, kept string) string {
	if kept == "" {
		return decisionNote(m, made, nil)
	}
	return decisionNote(m, made, func() string { return kept })
}

// decisionNote is flushNote's text, its decision starting after the
// write's last mark of the object's life or after mark; explain, when not
// nil, says what keeps the decision out of Retry.
func decisionNote(m *migration, mark ast.Stmt, explain func() string) string {
	if m.retry != nil || m.item || m.helper != nil || m.apply != nil || inDefer(m.path) {
		return ""
	}
	r := retries{migration: m}
	write, list, at := writeList(r)
	from := at
	for from > 0 && !lifeMark(r, list[from-1]) && list[from-1] != mark {
		from--
	}
	if from < at && droppedBase(r, list[from]) {
		from++ // a base taken at the read heads the decision: no part of it
	}
	if from < 0 || from == at {
		return ""
	}
	decision := list[from:at]
	var nodes []ast.Node
	for _, s := range decision {
		if !droppedBase(r, s) {
			nodes = append(nodes, s)
		}
	}
	why, first := "", decision[0].Pos()
	if !r.statusRead(nodes, r.obj, map[*types.Func]bool{}) {
		// The status read may be the guard's, an if around the decision
		// and the write whose condition cannot move with them (guardWhy):
		// it stays, and the decision with it.
		// Or the guard may move, and what blocks is the decision's own
		// (what it sets outliving it, a carried name: planWhy).
		g := guardIf(r, list, from, at)
		if g == nil || !r.statusRead([]ast.Node{g.Cond}, r.obj, map[*types.Func]bool{}) {
			return ""
		}
		why = guardWhy(r, g, write)
		if why == "" {
			why = carry(r, &retryPlan{stmts: decision, write: write, guard: g}) // migrateretrycarry.go
		}
		if why == "" {
			why = outerWhy(r, &retryPlan{stmts: decision}) // migrateretryouter.go
		}
		first = g.Pos()
	}
	if explain != nil && why == "" {
		why = explain()
	}
	if why == "" {
		why = stopNote(r, decision, write)
	}
	tf := m.pass.Fset.File(first)
	a, b := tf.Line(first), tf.Line(decision[len(decision)-1].End())
	lines := fmt.Sprintf("lines %d-%d", a, b)
	if a == b {
		lines = fmt.Sprintf("line %d", a)
	}
	// What to check leads, then what it costs, then why: a newcomer read
	// the old order, the reason first, as saying nothing to act on.
	return fmt.Sprintf("; check %s, left outside Retry (a conflict waits for the next reconcile): %s", lines, why)
}

// lifeMark reports whether s is where the patcher holds the object as
// read or written: the anchor, the Get and its check, a late base, a
// statement the fix drops, a re-read made a Fetch, a locked write, or an
// early exit returning one (`if ... { return p.Flush(ctx) }`): on the
// write's path that exit did not run, and it is no part of the decision,
// whose note names the decision's own reason.
func lifeMark(r retries, s ast.Stmt) bool {
	if s == r.anchor || s == r.late && !droppedBase(r, s) || s == r.getCheck || s == r.get || slices.Contains(r.drop, s) || lockedWrite(r, s) || writingExit(r, s) {
		return true
	}
	for _, f := range append([]*fetchPlan{r.fetch}, r.rereads...) {
		if f != nil && (f.get == s || f.ifStmt != nil && ast.Stmt(f.ifStmt) == s) {
			return true
		}
	}
	return false
}

// droppedBase reports whether s is a late base taken at the read that
// -fix drops (baseAtRead): no mark of the object's life, no part of the
// decision, whose head before it a guard may be (issue 80, U4's F3).
func droppedBase(r retries, s ast.Stmt) bool {
	return s != nil && s == r.late && r.lateFresh && !r.lateKeep
}

// stopNote says why the decision, which reads the status, stays before
// Flush: the last statement that cannot run in Retry's function, with
// the status read before it named by its line; or, when every
// status read is after that statement, what keeps the statements after
// it, which Retry's function could hold alone (planWhy): a List before a
// count is no reason when the count and the guard may move (U4's E1).
func stopNote(r retries, decision []ast.Stmt, write ast.Stmt) string {
	for i := len(decision) - 1; i >= 0; i-- {
		if droppedBase(r, decision[i]) {
			continue
		}
		why := r.stopWhy(decision[i], write)
		if why == "" {
			continue
		}
		if at := statusReadAt(r, decision[0].Pos(), decision[i].End()); at.IsValid() {
			if at >= decision[i].Pos() {
				return why // it reads the status itself: a guard's exit, a List's option
			}
			return fmt.Sprintf("%s's status is read at %s, then %s", r.obj.Name(), r.where(at), why)
		}
		if i+1 < len(decision) {
			return planWhy(r, decision[i+1:])
		}
		return why
	}
	return planWhy(r, decision)
}

// planWhy says why a decision of statements that may each run in mutate
// did not move: what planRetry's checks say, or a name it declares that
// is used after it.
func planWhy(r retries, decision []ast.Stmt) string {
	p, carryWhy := r.blockCarry()
	if p != nil {
		if why := planChecks(r, p); why != "" {
			return why
		}
	}
	if carryWhy != "" {
		return carryWhy // a name used after the write (migrateretrycarry.go)
	}
	from, to := decision[0].Pos(), decision[len(decision)-1].End()
	fn := r.enclosingFunc()
	var used *ast.Ident // the first such use, by position: Uses is a map
	for id, obj := range r.pass.TypesInfo.Uses {
		if obj == types.Object(r.lateVar) && droppedBase(r, r.late) {
			continue // a base dropped inside the decision (lateHead)
		}
		if d := obj.Pos(); d >= from && d < to && (id.Pos() < from || id.Pos() >= to) && id.Pos() >= fn.Pos() && id.Pos() < fn.End() && (used == nil || id.Pos() < used.Pos()) {
			used = id
		}
	}
	if used != nil {
		obj := r.pass.TypesInfo.Uses[used]
		return fmt.Sprintf("it declares %s at %s, used after it at %s, which a declaration inside Retry's function would hide", obj.Name(), r.where(obj.Pos()), r.where(used.Pos()))
	}
	if r.capturesStatus(&retryPlan{stmts: decision, write: r.enclosingStmt()}) {
		return fmt.Sprintf("it uses a value taken from %s's status before it, which Retry's function would write again after a conflict", r.obj.Name())
	}
	if fresh, at := staleAt(r, decision[0]); !fresh {
		if why := unstoredWhy(r, at); why != "" {
			return why
		}
		return fmt.Sprintf("%s at %s is not what the patcher made at %s holds (Retry would refuse the changes before it as pending)", r.obj.Name(), r.where(from), r.where(r.anchor.Pos()))
	}
	return fmt.Sprintf("the statements at %s cannot run again inside it", r.where(from))
}

// writingExit reports whether s is an if, with no else, whose body ends
// in a return of a locked write of the object (lockedWrite).
func writingExit(r retries, s ast.Stmt) bool {
	is, ok := s.(*ast.IfStmt)
	if !ok || is.Else != nil || len(is.Body.List) == 0 {
		return false
	}
	ret, ok := is.Body.List[len(is.Body.List)-1].(*ast.ReturnStmt)
	return ok && slices.ContainsFunc(ret.Results, func(e ast.Expr) bool { return lockedWrite(r, &ast.ExprStmt{X: e}) })
}
