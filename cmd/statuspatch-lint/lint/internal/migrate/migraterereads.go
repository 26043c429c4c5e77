package migrate

import "go/ast"

// planRereads makes the re-reads of the object that are no write's
// anchor (a Get after a write, in a branch, the next write after the
// branch) Fetches into the patcher spanning them, where the rewrite is
// clean: each write of that patcher carries them.
func planRereads(group []*migration, into bool) {
	m := group[0]
	var gets []ast.Stmt
	checks := map[ast.Stmt]ast.Stmt{}
	m.stmtLists(func(_ ast.Node, list []ast.Stmt) bool {
		for i, s := range list {
			if !m.reads().isGetStmt(s) {
				continue
			}
			gets = append(gets, s)
			if as, ok := s.(*ast.AssignStmt); ok && i+1 < len(list) && m.checksErr(list[i+1], as) {
				checks[s] = list[i+1]
			}
		}
		return true
	})
	for _, s := range gets {
		after := false
		var spans []*migration
		for _, h := range group {
			if h.get == s {
				after = false
				break
			}
			if h.call.End() <= s.Pos() {
				after = true
			}
			if h.anchor.Pos() < s.Pos() && s.Pos() < h.call.Pos() {
				spans = append(spans, h)
			}
		}
		if !after || len(spans) == 0 {
			continue
		}
		anchor := spans[0].anchor
		same := true
		for _, h := range spans {
			same = same && h.anchor == anchor
		}
		kept := func(why string) {
			for _, h := range spans {
				h.keptGets.keep(s, why)
			}
		}
		if !same {
			kept("the patchers of more than one earlier read span it")
			continue
		}
		f, why := m.planFetchWhy(s, checks[s])
		if f == nil {
			kept(why)
			continue
		}
		if f.reuse = anchor; !f.planReuse(m) {
			kept("its error variable cannot be the spanning patcher's")
			continue
		}
		f.into = into && valueObj(m.obj)
		f.onSuccess = f.into && literalFlush(group, m, anchor)
		for _, h := range spans {
			h.rereads = append(h.rereads, f)
		}
	}
}
