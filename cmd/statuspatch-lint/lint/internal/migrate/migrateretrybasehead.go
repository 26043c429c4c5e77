package migrate

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// A guard before a merge patch's base (issue 80, helper U4's F3, s107):
//
//	if wh.Status.Code != 0 { return ctrl.Result{}, nil }
//	base := wh.DeepCopy()
//	wh.Status.Code = allocate.Next(5000)
//	return ctrl.Result{}, r.Status().Patch(ctx, wh, client.MergeFrom(base))
//
// The base, taken with nothing changed since the read, goes: the patcher
// is made at the read (baseAtRead). The decision after it reads no
// status, and the guard before it stayed before a plain Flush, where the
// same code with Update moved into Retry whole. Here the decision is
// extended back over the base to its head, as a List item's is over its
// base (migrateitemhead.go): the guard and the count before it move into
// Retry's function, the base's line goes with them.

// lateHead extends the decision p, which starts right after a late base
// taken at the read and dropped (nothing else uses it), back over the
// base to its head, and reports whether it did (baseHead).
func lateHead(r retries, p *retryPlan) bool {
	if !droppedBase(r, r.late) || r.item || p.guard != nil || p.placed != nil || p.detached { // migrateretrynote.go
		return false
	}
	return baseHead(r, p, r.late, r.lateVar, nil)
}

// baseHead extends the decision p, which starts right after base (of
// baseVar), back over it to its head, stopping at stop or a statement
// that cannot run in Retry's function (stopWhy), and reports whether it
// did (p unchanged when not): when the head reads the status, declares
// nothing used after the write but the base in the write's call, exits
// only where nothing changed the object (exitChanged), and no status
// read is left before it.
func baseHead(r retries, p *retryPlan, base ast.Stmt, baseVar *types.Var, stop ast.Stmt) bool {
	_, list, at := writeList(r)
	b := slices.Index(list, base)
	if at < 0 || b < 0 || b+1 >= at || list[b+1] != p.stmts[0] {
		return false
	}
	from := b
	for from > 0 && (stop == nil || list[from-1] != stop) && r.movable(list[from-1], p.write) {
		from--
	}
	from = outerHead(r, list, from, b) // migrateretryouter.go
	head := stmtNodes(list[from:b])
	if from == b || !r.statusRead(head, r.obj, map[*types.Func]bool{}) || !headScoped(r, list[from].Pos(), base, baseVar, p.write) {
		return false
	}
	old := p.stmts
	p.stmts = list[from:at]
	if r.exitChanged(p) != "" || headRead(r, p) != "" || r.capturesStatus(p) {
		p.stmts = old
		return false
	}
	return true
}

// headScoped reports whether each name declared from from to base (the
// base included) is used only before the write, or, the base's variable,
// in the write's call, which the Retry replaces.
func headScoped(r retries, from token.Pos, base ast.Stmt, baseVar *types.Var, write ast.Stmt) bool {
	declared := map[types.Object]bool{}
	for id, obj := range r.pass.TypesInfo.Defs {
		if obj != nil && id.Pos() >= from && id.Pos() < base.End() {
			declared[obj] = true
		}
	}
	for id, obj := range r.pass.TypesInfo.Uses {
		if !declared[obj] || id.Pos() >= from && id.Pos() < write.Pos() {
			continue
		}
		if baseVar != nil && obj == types.Object(baseVar) && id.Pos() >= r.call.Pos() && id.End() <= r.call.End() {
			continue
		}
		return false
	}
	return true
}

// holds reports whether the decision p (nil: none) moves s into Retry's
// function: a late base its head took in, whose line goes with it.
func (p *retryPlan) holds(s ast.Stmt) bool {
	return p != nil && s != nil && slices.Contains(p.stmts, s)
}
