package migrate

import (
	"go/ast"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/cfg"
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
// a path of the function's control-flow graph (go/cfg) from the node
// holding at, or in a function literal made before at, which may run
// later (a deferred one, one kept in a variable). Unsure is true.
func useFollows(m *migration, at ast.Node, uses []ast.Node) bool {
	var body *ast.BlockStmt
	switch fn := m.enclosingFunc().(type) {
	case *ast.FuncDecl:
		body = fn.Body
	case *ast.FuncLit:
		body = fn.Body
	}
	if body == nil {
		return true
	}
	for _, u := range uses {
		c, ok := m.cursor(u)
		if !ok {
			return true
		}
		for e := range c.Enclosing((*ast.FuncLit)(nil)) {
			if e.Node().Pos() <= body.Pos() {
				break // the function's own literal
			}
			if e.Node().Pos() < at.Pos() {
				return true
			}
		}
	}
	l := &life{g: cfg.New(body, mayReturn(m.pass))}
	start, i := l.nodeAt(at.Pos())
	if start == nil {
		return true
	}
	holds := func(n ast.Node) bool {
		return slices.ContainsFunc(uses, func(u ast.Node) bool { return n.Pos() <= u.Pos() && u.End() <= n.End() })
	}
	if holds(start.Nodes[i]) || slices.ContainsFunc(start.Nodes[i+1:], holds) {
		return true
	}
	seen := map[*cfg.Block]bool{}
	next := slices.Clone(start.Succs)
	for len(next) > 0 {
		b := next[len(next)-1]
		next = next[:len(next)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		if slices.ContainsFunc(b.Nodes, holds) {
			return true
		}
		next = append(next, b.Succs...)
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
