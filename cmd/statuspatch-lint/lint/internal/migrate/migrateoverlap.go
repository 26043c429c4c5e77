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
		if g.fetch != nil {
			fetched[g.fetch.get] = true
		}
		for _, f := range g.rereads {
			fetched[f.get] = true
		}
	}
	slices.Sort(names)
	for i, a := range names {
		for _, b := range names[i+1:] {
			sa, sb := spans[a], spans[b]
			if sa.write.Pos() > sb.write.Pos() {
				sa, sb = sb, sa
			}
			if sa.from < sb.to && sb.from < sa.to {
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
				if g.anchor.End() <= s.Pos() && s.End() <= g.call.Pos() && g.anchor != s && g.get != s {
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
