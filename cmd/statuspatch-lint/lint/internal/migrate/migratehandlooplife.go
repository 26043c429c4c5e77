package migrate

import (
	"go/ast"
	"slices"
)

// A hand conflict loop's Get in an object's life (life.go): where the
// loop becomes the Retry of the patcher -fix makes for the object's
// writes before it (migratehandloopedit.go), its Get is that patcher's
// re-read, in place, and renews what the patcher holds: a helper's
// caller passing the object after the loop passes the patcher's object
// (issue 80, u's project C: conditions.Set(ctx, r.Client, db, ...)
// after DatabaseReconciler's loop). At dc177ff8 the Get ended the hold,
// and the exported helper and its other callers' writes stayed.

// refetchedGet reports whether get, a Get of the object after its
// patcher is made, is one -fix makes the patcher's own read: a Fetch
// (refetched), or a hand conflict loop's that becomes its Retry.
func refetchedGet(l *life, get *ast.CallExpr) bool {
	return slices.Contains(l.refetched, get) || handLoopGet(l, get)
}

// handLoopGet reports whether get is the Get of a hand conflict loop
// whose write moves onto the patcher -fix makes (no code's variable,
// l.via) for the object's last status write before the loop: that write
// on every path to it (or guarded by the status's difference from its
// base), the object unchanged between, the decision's calls made once.
func handLoopGet(l *life, get *ast.CallExpr) bool {
	if l.via != nil || l.made == nil {
		return false
	}
	cur, ok := l.si.cursor(get)
	if !ok {
		return false
	}
	var loop *ast.ForStmt
	for e := range cur.Enclosing((*ast.ForStmt)(nil), (*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		loop, _ = e.Node().(*ast.ForStmt)
		break
	}
	if loop == nil || len(loop.Body.List) == 0 || get.Pos() < loop.Body.List[0].Pos() || get.End() > loop.Body.List[0].End() {
		return false
	}
	var write, last *ast.CallExpr
	fn := l.si.enclosingFunc()
	fc, _ := l.si.cursor(fn)
	for c := range fc.Preorder((*ast.CallExpr)(nil)) {
		call := c.Node().(*ast.CallExpr)
		if len(call.Args) < 2 || !isStatusWrite(call) || !l.is(call.Args[1]) {
			continue
		}
		switch {
		case call.Pos() >= loop.Pos() && call.End() <= loop.End():
			write = call
		case call.End() <= loop.Pos() && (last == nil || call.Pos() > last.Pos()):
			last = call
		}
	}
	if write == nil || last == nil || last.Pos() < l.made.End() {
		return false
	}
	wc, ok := l.si.cursor(write)
	client, status := statusReceiver(write)
	if !ok || !status {
		return false
	}
	m := &migration{site: site{place: place{calls: l.si.calls, call: write}}}
	m.path = pathOf(wc)
	m.file, _ = m.path[len(m.path)-1].(*ast.File)
	m.obj, m.client = l.obj, client
	h, why := handLoopOf(m)
	if h == nil || why != "" || h.get != get {
		return false
	}
	s := h.statementOf(last)
	if s == nil || h.unchangedSince(s) != "" {
		return false
	}
	_, why = onceCalls(retries{migration: m}, fn, stmtNodes(h.decide))
	return why == ""
}
