package migrate

import (
	"go/ast"
	"slices"
)

// A List item's check of its status before its base (issue 80, U2's
// project D and U3's project E):
//
//	ws := &list.Items[i]
//	if ws.Spec.Tenant != tenant { continue }
//	mine = append(mine, ws.Name)
//	if ws.Status.TenantID == id { continue }
//	base := ws.DeepCopy()
//	ws.Status.TenantID = id
//	if err := c.Status().Patch(ctx, ws, client.MergeFrom(base)); err != nil {...}
//
// The base is the anchor the item's Fetch replaces (itemBase), and
// nothing changed the item between its definition and the base: a base
// taken at the head holds what this one holds. The decision's head, back
// to the check, moves into Retry's function with the decision (the
// check's continue mutate's return nil, migrateretryexit.go), the base
// goes, and the item's patcher is made before the head (itemHeadAt);
// what stands before the check and neither reads the status nor changes
// the item (outerHead: the spec filter and the name collected) stays
// before it, run once. A head collecting the status
// (append(mine, ws.Status.Phase)) moves too, and outerWhy keeps it,
// naming the line; one that changes the item before the base, whose
// change the base holds and the write would not send, is not extended:
// headRead names the read.

// itemHead extends the decision p, which starts right after the item's
// base, back over the base to its head, and reports whether it did (p
// unchanged when not): when the head reads the status, may run in
// Retry's function (stopWhy), declares nothing used after the write but
// the base in the write's call, exits only where nothing changed the
// item (exitChanged), and no status read is left before it.
func itemHead(r retries, p *retryPlan) bool {
	if !r.item || r.keep || p.guard != nil || p.placed != nil || p.detached || r.anchor == nil || !itemBase(r, r.anchor) {
		return false
	}
	def, _ := r.definition(r.obj)
	l := newLife(&r.site, r.obj)
	if def == nil || l == nil {
		return false
	}
	l.made = def
	if !l.freshAt(cfgNode(r.anchor)) {
		return false // a change before the base, which the base holds
	}
	return baseHead(r, p, r.anchor, r.baseVar, def) // migrateretrybasehead.go
}

// itemHeadAt is the first statement of a decision that took the item's
// base in (itemHead): the item's patcher is made before it, and the
// base, in the decision's lines, goes with them. nil when the decision
// does not hold the anchor.
func itemHeadAt(m *migration) ast.Stmt {
	if m.retry == nil || m.anchor == nil || len(m.retry.stmts) < 2 || !slices.Contains(m.retry.stmts[1:], m.anchor) {
		return nil
	}
	return m.retry.stmts[0]
}

// itemBaseDropped adds to exits (the texts mutate's lines take in place
// of nodes, asObject) the base in the decision p, with the line break
// before it: an item's (mutate holds the object the Fetch made, not a
// base) or a late base taken at the read (lateHead, mutate holds the
// object the patcher re-reads).
func itemBaseDropped(r retries, p *retryPlan, exits map[ast.Node]string) map[ast.Node]string {
	for _, base := range []ast.Stmt{r.anchor, r.late} {
		i := slices.Index(p.stmts, base)
		if base == nil || i < 1 {
			continue
		}
		if exits == nil {
			exits = map[ast.Node]string{}
		}
		exits[&ast.BadStmt{From: p.stmts[i-1].End(), To: base.End()}] = ""
	}
	return exits
}
