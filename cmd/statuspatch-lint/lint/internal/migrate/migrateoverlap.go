package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
)

// Two patchers of one object must not be alive at once: a write through
// one moves the object's resourceVersion and status past the other's
// base, whose next Flush then returns a Conflict ("another writer
// changed the status") where the handwritten write, made on the object
// that held the response, was stored. A Patch of a lock base taken after
// the read followed by an Update anchored at that read is such a pair:
//
//	c.Get(ctx, key, obj)                      // the Update's patcher
//	base := client.MergeFrom(obj.DeepCopy())  // the Patch's patcher
//	c.Status().Patch(ctx, obj, base)
//	c.Status().Update(ctx, obj)
//
// Nor may a Get of the object that stays a Get (no Fetch of the patcher)
// sit between a patcher's making and its write: the patcher's base would
// be the object before that read (base := obj.DeepCopy() taken before
// c.Get(ctx, key, obj)).

// overlapping says why group's writes cannot move, "" when each of its
// patchers spans its writes alone and no kept Get sits inside a span.
func overlapping(m *migration, group []*migration) string {
	type span struct {
		from, to token.Pos
		write    *ast.CallExpr
		anchors  []ast.Stmt
		writes   []*ast.CallExpr
	}
	spans := map[string]*span{}
	var names []string
	fetched := map[ast.Stmt]bool{}
	for _, g := range group {
		name := g.patcherName(group)
		s := spans[name]
		if s == nil {
			s = &span{from: g.anchor.Pos(), to: g.call.End(), write: g.call}
			spans[name] = s
			names = append(names, name)
		}
		s.from, s.to = min(s.from, g.anchor.Pos()), max(s.to, g.call.End())
		s.anchors, s.writes = append(s.anchors, g.anchor), append(s.writes, g.call)
		if g.fetch != nil {
			fetched[g.fetch.get] = true
		}
		for _, f := range g.rereads {
			fetched[f.get] = true
		}
	}
	slices.Sort(names)
	l := newLife(&m.site, m.obj) // nil: unsure, every pair and read crosses
	for i, a := range names {
		for _, b := range names[i+1:] {
			sa, sb := spans[a], spans[b]
			if sa.write.Pos() > sb.write.Pos() {
				sa, sb = sb, sa
			}
			if crosses(m, l, sa.anchors, sa.writes, sb.writes) || crosses(m, l, sb.anchors, sb.writes, sa.writes) {
				return m.shapeWhy(fmt.Sprintf("the status writes of %s at %s and %s would each have a patcher of their own, alive at once: a Flush of one would conflict with the other's write",
					m.obj.Name(), m.where(sa.write.Pos()), m.where(sb.write.Pos())))
			}
		}
	}
	why := ""
	m.stmtLists(func(_ ast.Node, list []ast.Stmt) bool {
		for _, s := range list {
			if !m.reads().isGetStmt(s) || fetched[s] {
				continue
			}
			for _, g := range group {
				if g.anchor.End() <= s.Pos() && s.End() <= g.call.Pos() && g.anchor != s && g.get != s && readBetween(l, g.anchor, s, g.call) {
					why = m.shapeWhy(fmt.Sprintf("%s is read again with Get at %s, after the base its write at %s is made from: the patcher's base would be the object before that read",
						m.obj.Name(), m.where(s.Pos()), m.where(g.call.Pos())))
					return false
				}
			}
		}
		return true
	})
	return why
}

// crosses reports whether a write of another patcher (others) can run
// between the making of a patcher (at one of anchors) and one of its
// writes: on a path of the function's graph (go/cfg) from an anchor
// through that write to one of writes, where the patcher's base predates
// the other's store and its Flush meets it as another writer's. Spans
// that overlap in the text only (the tutorial's re-Get and write in a
// failure branch that returns, inside the span of the patcher of the
// last write) do not cross; a loop's next turn does, though the text of
// one span ends before the other's begins. A write in a function
// literal, a defer or a go statement runs where the graph does not show:
// one of the patcher's (a deferred failure write) is taken to run after
// every write the graph reaches from its making; one of the other's,
// anywhere.
func crosses(m *migration, l *life, anchors []ast.Stmt, writes, others []*ast.CallExpr) bool {
	held := func(w *ast.CallExpr) bool {
		c, ok := m.cursor(w)
		if !ok {
			return true
		}
		for e := range c.Enclosing((*ast.FuncLit)(nil), (*ast.DeferStmt)(nil), (*ast.GoStmt)(nil)) {
			if e.Node().Pos() > m.enclosingFunc().Pos() {
				return true
			}
		}
		return false
	}
	if slices.ContainsFunc(others, held) {
		return true
	}
	late := slices.ContainsFunc(writes, held)
	if l == nil {
		return true
	}
	for _, a := range anchors {
		for _, o := range others {
			if !l.reaches(graphPos(a), o.Pos()) {
				continue
			}
			if late {
				return true
			}
			for _, w := range writes {
				if l.reaches(o.Pos(), w.Pos()) {
					return true
				}
			}
		}
	}
	return false
}

// readBetween reports whether the Get get can run between the making of
// a patcher at anchor and its write: a path of the function's graph runs
// from anchor through get to write (one in a branch that returns before
// the write does not).
func readBetween(l *life, anchor, get ast.Stmt, write *ast.CallExpr) bool {
	return l == nil || l.reaches(graphPos(anchor), graphPos(get)) && l.reaches(graphPos(get), write.Pos())
}

// graphPos is a position of s that a node of go/cfg's graph holds: an
// if's init, which the graph holds where it does not hold the if.
func graphPos(s ast.Stmt) token.Pos {
	if is, ok := s.(*ast.IfStmt); ok && is.Init != nil {
		return is.Init.Pos()
	}
	return s.Pos()
}
