package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// A re-Get after the code's patcher (issue 80): p :=
// New<Kind>StatusPatcher(c, obj) after the read, later c.Get(ctx, key,
// obj) and a write. Left a Get, p no longer holds what the write would
// send; the re-Get becomes the patcher's fresh read, in the forms a
// re-read after a moved write takes (migratefetch.go), assigned to p:
//
//	p, err = patchers.Fetch<Kind>StatusPatcher(ctx, c, key)
//	if err != nil {
//		return ... // kept
//	}
//	obj = p.Object()
//
// or, where a function literal flushes p (a deferred one, run after a
// failed read too) or the object is a value, Fetch<Kind>StatusPatcherInto
// into the object itself (pFetched, err := ..., p = pFetched after the
// check where a literal flushes p), and the write becomes p's Flush. It
// stays a Get, the write kept naming its line, where a re-Get after a
// moved write stays (planFetchWhy: its error ignored or not returned,
// Get's options, another client, the object aliased or a parameter, or
// given to a defer or go statement before it), where
// a defer or go statement takes p before it, and where a literal flushes p
// and the generated package has no Fetch<Kind>StatusPatcherInto.

// refetch plans node n of l's graph, a Get of the object after cp is made,
// as a Fetch into cp's variable: ok is false when n is no Get statement
// of the object; why says why it stays.
func (c *codeLife) refetch(l *life, cp madePatcher, n ast.Node) (f *fetchPlan, why string, ok bool) {
	m := c.migration
	get, check := getStmtOf(m, n)
	if get == nil {
		return nil, "", false
	}
	name, via := c.obj.Name(), cp.via.Name()
	advice := fmt.Sprintf("make it %s's: %s, err = Fetch%s(...) and %s = %s.Object(), then run -fix again", via, via, c.p.Type, name, via)
	stays := func(why string) (*fetchPlan, string, bool) {
		return nil, fmt.Sprintf("%s is read again with Get at %s, after its patcher %s is made at %s, and that Get stays a Get: %s (%s)",
			name, m.where(get.Pos()), via, m.where(cp.stmt.Pos()), why, advice), true
	}
	f, why, held := m.planFetchWhy(get, check)
	if f == nil {
		if held != nil {
			advice = fmt.Sprintf("register the %s statement after the re-read", stmtWord(held))
			if _, isDefer := held.(*ast.DeferStmt); isDefer {
				advice += fmt.Sprintf(", or give it a function literal (defer func() { ... }()), which reads %s when it runs", name)
			}
		}
		return stays(why)
	}
	if f.reuse = cp.stmt; !f.planReuse(m) {
		return stays("its error variable cannot be " + via + "'s")
	}
	// p, err := Fetch... only where p is the block's own: of an outer
	// var p, it would declare a new p shadowing it.
	f.sameBlock = m.block(cp.stmt) == m.block(get) && cp.via.Parent() == m.blockScope(get)
	writes := []*ast.CallExpr{m.call}
	for _, call := range c.writes() {
		writes = append(writes, call)
	}
	lit, held := viaHeld(m, cp.via, get, writes)
	switch {
	case held != nil:
		advice = "register it after the re-read, or flush " + via + " in a deferred function literal, which reads the variable when it runs"
		return stays(fmt.Sprintf("the %s statement at %s takes %s when it runs, before the re-read: it would flush that patcher, over %s as read before", stmtWord(held), m.where(held.Pos()), via, name))
	case lit != nil && !c.p.Into:
		return stays(fmt.Sprintf("the function literal at %s flushes %s, and a Fetch would point %s to another object: regenerate the patchers for Fetch%sInto, which reads into the object %s points to", m.where(lit.Pos()), via, name, c.p.Type, name))
	}
	f.into = c.p.Into && (valueObj(c.obj) || lit != nil)
	f.onSuccess = f.into && lit != nil
	uses := []ast.Node{}
	for _, w := range writes {
		uses = append(uses, w)
	}
	if fn := m.enclosingFunc(); fn != nil {
		for u := range m.usesOf(fn, cp.via, fn.Pos(), fn.End()) {
			uses = append(uses, u.Node())
		}
	}
	f.planDrop(m, uses)
	if body := f.ifStmt.Body; !f.onSuccess {
		for range m.usesOf(body, cp.via, body.Pos(), body.End()) {
			return stays(fmt.Sprintf("its error branch at %s uses %s, which a failed Fetch leaves nil", m.where(f.ifStmt.Pos()), via))
		}
	}
	return f, "", true
}

// getStmtOf is the statement of m's function holding n that reads m's
// object with Get, and the if checking its error right after it.
func getStmtOf(m *migration, n ast.Node) (get, check ast.Stmt) {
	m.stmtLists(func(_ ast.Node, list []ast.Stmt) bool {
		for i, s := range list {
			if s.Pos() > n.Pos() || n.End() > s.End() || !m.reads().isGetStmt(s) {
				continue
			}
			get = s
			if as, ok := s.(*ast.AssignStmt); ok && i+1 < len(list) && m.checksErr(list[i+1], as) {
				check = list[i+1]
			}
		}
		return get == nil
	})
	return get, check
}

// viaHeld finds, in m's function, a function literal that uses the
// patcher's variable v or holds one of writes, the object's status writes
// that become v's Flush (a deferred one flushing it: lit), and a defer or
// go statement registered before the re-read get that takes v, or is
// such a write, when it runs (held).
func viaHeld(m *migration, v *types.Var, get ast.Stmt, writes []*ast.CallExpr) (lit *ast.FuncLit, held ast.Stmt) {
	fn := m.enclosingFunc()
	root, ok := m.cursor(fn)
	if !ok {
		return nil, nil
	}
	uses := slices.Collect(m.usesOf(fn, v, fn.Pos(), fn.End()))
	for _, call := range writes {
		if cur, ok := m.cursor(call); ok {
			uses = append(uses, cur)
		}
	}
	for _, cur := range uses {
		for e := range cur.Enclosing((*ast.FuncLit)(nil), (*ast.DeferStmt)(nil), (*ast.GoStmt)(nil)) {
			if !root.Contains(e) || e.Node() == fn {
				break
			}
			switch x := e.Node().(type) {
			case *ast.FuncLit:
				lit = x
			case *ast.DeferStmt, *ast.GoStmt:
				if x.Pos() < get.Pos() && held == nil {
					held = x.(ast.Stmt)
				}
			}
			break
		}
	}
	return lit, held
}

// stmtWord names a defer or go statement.
func stmtWord(s ast.Stmt) string {
	if _, ok := s.(*ast.GoStmt); ok {
		return "go"
	}
	return "defer"
}

// fetchEdits are the edits of c's planned re-reads, Fetches into cp's
// variable made with its options.
func (c *codeLife) fetchEdits(cp madePatcher) ([]analysis.TextEdit, string) {
	if len(c.fetches) == 0 {
		return nil, ""
	}
	qual, importEdit, why := c.text().qualifier(c.p.Pkg)
	if why != "" {
		return nil, why
	}
	var opts strings.Builder
	for _, o := range cp.opts {
		opts.WriteString(", " + types.ExprString(o))
	}
	c.clientText = types.ExprString(cp.client)
	var edits []analysis.TextEdit
	if importEdit != nil {
		edits = append(edits, *importEdit)
	}
	for _, f := range c.fetches {
		edits = append(edits, f.edits(c.migration, qual, c.p.Type, cp.via.Name(), opts.String())...)
	}
	return edits, ""
}
