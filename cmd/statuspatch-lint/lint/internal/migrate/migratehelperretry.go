package migrate

import (
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
)

// A helper or sub-reconciler that takes the patcher (issue 80, item 2:
// (&rosterReconciler{c: r.Client}).reconcile(ctx, crew)) and decides
// from the status it is given before its write: a Flush there, refused
// as a conflict under a manager, would leave the decision to the next
// reconcile, made twice. When the helper's body up to the write is the
// decision (statements that may run again: a return nil before the write
// is mutate's return nil) and every caller hands the object as its
// patcher holds it (no status change between the patcher and the call),
// the write becomes the patcher's Retry of that decision: a conflict
// reads the object again and the helper decides again. A value it hands
// out (tokens.Add) is made once (migrateretryonce.go); what cannot be
// made once keeps the helper's Flush, as before.

// helperRetry plans the Retry of the helper's write, or nil.
func helperRetry(h *helperMove, fd *ast.FuncDecl, callers []*helperCaller) *retryPlan {
	if len(h.also) > 0 || h.apply != nil || h.alias != nil || len(h.chain) > 0 || h.baseParam != nil || h.scope != nil {
		return nil
	}
	r := retries{migration: h.migration, exits: true}
	write := r.enclosingStmt()
	at := slices.Index(fd.Body.List, write)
	if write == nil || at < 1 {
		return nil
	}
	for _, s := range fd.Body.List[:at] {
		if !r.movable(s, write) {
			return nil
		}
	}
	p := &retryPlan{stmts: fd.Body.List[:at], write: write}
	r.plan = p
	if !r.readsStatus() || !r.scoped(p) || r.capturesStatus(p) || r.exitChanged(p) != "" || outerWhy(r, p) != "" {
		return nil
	}
	once, why := onceCalls(r, fd, p.nodes())
	if why != "" {
		return nil
	}
	p.once = once
	for _, hc := range callers {
		if hc.link != nil {
			return nil
		}
		for _, c := range hc.calls {
			if !callerFresh(retries{migration: c}) {
				return nil
			}
		}
	}
	if _, ok := r.retryText("p", p); !ok {
		return nil
	}
	return p
}

// helperRetryEdits are the edits of the helper's write made its Retry:
// the decision's lines gone, the calls made once declared before it.
func helperRetryEdits(h *helperMove, p *retryPlan, name string) ([]analysis.TextEdit, *analysis.TextEdit, bool) {
	r := retries{migration: h.migration, exits: true, plan: p}
	text, ok := r.retryText(name, p)
	if !ok {
		return nil, nil, false
	}
	once, syncImport, ok := onceEdits(r, p)
	if !ok {
		return nil, nil, false
	}
	edits := append(append(once, r.deleteBlock(p)...), analysis.TextEdit{Pos: h.call.Pos(), End: h.call.End(), NewText: []byte(text)})
	return edits, syncImport, true
}

// usedBesideRetry reports whether id, a use of the object in the helper,
// is outside the decision moved into Retry (p nil: any use).
func usedBesideRetry(p *retryPlan, id *ast.Ident) bool {
	return p == nil || id.Pos() < p.stmts[0].Pos() || id.Pos() >= p.write.End()
}

// callerFresh reports whether the caller's object, at its call of the
// helper (r.call), is what its patcher holds: its life fresh there
// (freshAt, at the call's statement), or only read since the caller's own status write of it in a
// statement before the call's in the same list, which the patcher's
// Flush renews.
func callerFresh(r retries) bool {
	stmt := r.enclosingStmt()
	at := ast.Node(stmt)
	if s, ok := stmt.(*ast.IfStmt); ok && s.Init != nil {
		at = s.Init // the node of the function's graph holding the call
	}
	if stmt != nil && r.freshAt(at) {
		return true
	}
	_, l, i := writeList(r)
	for j := i - 1; j >= 0; j-- {
		written := false
		ast.Inspect(l[j], func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && isStatusWrite(c) && settles(r, c) {
				written = true
			}
			return !written
		})
		if written {
			return r.onlyRead(r.enclosingFunc(), r.obj, l[j].End(), r.call.Pos(), map[*types.Func]bool{})
		}
	}
	return false
}
