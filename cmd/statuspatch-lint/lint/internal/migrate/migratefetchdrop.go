package migrate

import (
	"go/ast"

	"golang.org/x/tools/go/analysis"
)

// A re-read no Flush can follow. The tutorial's deletion branch writes
// its Degraded condition, reads the object again and removes the
// finalizer, then returns: the Fetch there reads into the object (Into)
// for the Update, and the patcher it would assign to the spanning
// variable is never flushed on that path. Assigned anyway
// (p = pFetched), staticcheck's SA4006 fails the user's make lint on
// code -fix wrote. Such a Fetch keeps only its read and its check:
//
//	if _, err := patchers.Fetch<Kind>StatusPatcherInto(ctx, c, key, obj); err != nil {
//
// the Get's own form, its error variable as it was.

// planDrop sets f.drop when f reads into the object and no use of the
// patcher it assigns (uses: the writes that become its Flushes, the
// code's uses of its variable) can run after the re-read.
func (f *fetchPlan) planDrop(m *migration, uses []ast.Node) {
	f.drop = f.into && f.reuse != nil && !useFollows(m, f.call, uses)
}

// flushesOf are the writes of group flushing the patcher of anchor (its
// own and those of the reads that assign it again).
func flushesOf(group []*migration, anchor ast.Stmt) []ast.Node {
	root := reuseRoots(group)
	var out []ast.Node
	for _, h := range group {
		if root(h.anchor) == root(anchor) {
			out = append(out, h.call)
		}
	}
	return out
}

// useFollows reports whether one of uses can run after the call at: on
// a path of the function's control-flow graph (life.reaches, go/cfg)
// from the node holding at, in that node itself, or in a function
// literal made before at, which may run later (a deferred one, one kept
// in a variable). Unsure is true.
func useFollows(m *migration, at ast.Node, uses []ast.Node) bool {
	l := newLife(&m.site, m.obj)
	if l == nil {
		return true
	}
	ab, ai := l.nodeAt(at.Pos())
	if ab == nil {
		return true
	}
	for _, u := range uses {
		c, ok := m.cursor(u)
		if !ok {
			return true
		}
		for e := range c.Enclosing((*ast.FuncLit)(nil)) {
			if e.Node() == m.enclosingFunc() {
				break // the function's own literal
			}
			if e.Node().Pos() < at.Pos() {
				return true
			}
		}
		if ub, ui := l.nodeAt(u.Pos()); ub == ab && ui == ai || l.reaches(at.Pos(), u.Pos()) {
			return true
		}
	}
	return false
}

// dropEdits are the edits of a Fetch planned with drop: the Get's call
// becomes fetch, and its error variable takes the Fetch's second result.
func (f *fetchPlan) dropEdits(fetch string) []analysis.TextEdit {
	as, _ := f.get.(*ast.AssignStmt)
	if f.inIf {
		as, _ = f.ifStmt.Init.(*ast.AssignStmt)
	}
	return []analysis.TextEdit{
		{Pos: as.Lhs[0].Pos(), End: as.Lhs[0].Pos(), NewText: []byte("_, ")},
		{Pos: f.call.Pos(), End: f.call.End(), NewText: []byte(fetch)},
	}
}
