package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/analysis"
)

// planRereads makes the re-reads of the object that are no write's
// anchor (a Get after a write, in a branch, the next write after the
// branch) Fetches into the patcher spanning them, where the rewrite is
// clean: each write of that patcher carries them. It says why the group
// stays (pointerHeld), "" when it moves.
func planRereads(group []*migration, p Patcher) string {
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
			// A deferred write runs as the function returns, after
			// the re-read wherever it is written (defer func() {
			// ... Update(ctx, obj) }() before the re-Get): it spans
			// it, and is no write before it. Left a Get, the re-read
			// brought another writer's status into the object after
			// the patcher's base, and the deferred Flush conflicted
			// where the Update, after its re-read, was stored.
			at := h.call.Pos()
			if inDefer(h.path) {
				at = h.enclosingFunc().End()
			} else if h.call.End() <= s.Pos() {
				after = true
			}
			if h.anchor.Pos() < s.Pos() && s.Pos() < at {
				spans = append(spans, h)
			}
		}
		if after && len(spans) == 0 {
			spans = helperSpans(group, m, s) // no write after it: a helper's, maybe
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
		f, why, _ := m.planFetchWhy(s, checks[s])
		if f == nil {
			kept(why)
			continue
		}
		if f.reuse = anchor; !f.planReuse(m) {
			kept("its error variable cannot be the spanning patcher's")
			continue
		}
		f.into = p.Into && (valueObj(m.obj) || pointerHeld(group, m, s, nil, p) != "")
		if why := pointerHeld(group, m, s, f, p); why != "" {
			return why
		}
		f.onSuccess = f.into && literalFlush(group, m, anchor)
		f.planDrop(m, flushesOf(group, anchor))
		for _, h := range spans {
			h.rereads = append(h.rereads, f)
		}
	}
	return ""
}

// helperSpans are the writes of the group before get, a re-read with no
// write of the group after it, when a call after it hands the object to a
// function of the package that writes its status (issue 80, the
// tutorial's re-fetch, then r.setReady(ctx, w)), or to an exported helper
// of another package whose write takes the patcher (its HelperFact, not
// Generic: status.MarkFailed(ctx, r.Client, w, ...)): that write takes the
// patcher of the caller's own writes (sharedPatcher), made before the
// re-read, whose base the Get leaves behind. Its Fetch assigns that
// patcher again, so the helper is given the object as re-read; where it
// cannot, the helper's move says why (sharedPatcher). nil when there is
// no such call.
func helperSpans(group []*migration, m *migration, get ast.Stmt) []*migration {
	var helper *ast.CallExpr
	fn, ok := m.cursor(m.enclosingFunc())
	if !ok {
		return nil
	}
	l, from := newLife(&m.site, m.obj), get.Pos()
	if call := stmtCall(get); call != nil {
		from = call.Pos() // the graph's node of the Get, not of an if around it
	}
	for c := range fn.Preorder((*ast.CallExpr)(nil)) {
		call := c.Node().(*ast.CallExpr)
		// A helper on a path exclusive of the re-read's is given the
		// patcher as it was made: the read need not renew it.
		if call.Pos() < get.End() || helper != nil || l != nil && !l.reaches(from, call.Pos()) {
			continue
		}
		calleeFn := kube.CalledFunc(m.pass, call)
		callee := m.funcDecl(calleeFn)
		for i, a := range call.Args {
			if !passesObj(m.pass.TypesInfo, m.obj, a) {
				continue
			}
			var fact HelperFact // a helper over any kind is given a patcher made at the call (freshAtCall)
			if overAnyKind(calleeFn, i) {
				continue
			}
			if callee != nil && callee.Body != nil && localStatusWrite(m, callee, i, 0) != nil || m.helperWrite(calleeFn, i) && m.pass.ImportObjectFact(calleeFn.Origin(), &fact) && !fact.Generic {
				helper = call
			}
		}
	}
	if helper == nil {
		return nil
	}
	var spans []*migration
	for _, h := range group {
		if h.anchor.Pos() < get.Pos() {
			spans = append(spans, h)
		}
	}
	return spans
}

// overAnyKind says whether fn's parameter i is a type parameter or an
// interface (updateAny[T client.Object](ctx, c, obj T), a helper of the
// package over any kind): freshAtCall gives such a call a patcher made
// right before it, from the object as the caller holds it then, so a
// re-read before the call needs no Fetch (migrategenericretry.go's
// ownWriteReassigned, whose re-read is of another key).
func overAnyKind(fn *types.Func, i int) bool {
	if fn == nil {
		return false
	}
	sig, ok := fn.Origin().Type().(*types.Signature)
	if !ok || sig.Params().Len() == 0 {
		return false
	}
	if i >= sig.Params().Len() {
		i = sig.Params().Len() - 1 // variadic
	}
	return types.IsInterface(sig.Params().At(i).Type())
}

// callerShared gives hc, a caller writing the object's status itself, the
// patcher of its own writes to pass (sharedPatcher), or says why it
// cannot: those writes stay, or it reads the object again before the
// call and that read stays a Get (rereadBeforeHelper). Every path that
// hands a caller's patcher to a helper (one level, exported, a chain's
// callers) asks both.
func callerShared(pass *analysis.Pass, files Files, ws []*Write, opts Options, hc *helperCaller, ours fieldOwner) string {
	var problem string
	hc.shared, problem = sharedPatcher(pass, files, ws, opts, hc, ours)
	return rereadBeforeHelper(files, opts, ws, hc, problem)
}

// rereadBeforeHelper says why hc's calls of a helper given the patcher
// of its caller's own writes (sharedPatcher: hc.shared, made by the fix
// hc.sharedFix) cannot pass it, problem when there is one already; a
// helper over any kind makes a patcher before the call instead
// (freshAtCall): the caller reads the object again between that patcher and a
// call, and no fix of its writes makes the read a Fetch of it
// (planRereads: an ignored error, Get options, a read in an
// expression...). The helper's Flush would carry the base of the
// patcher's read, the Get having left it behind, and conflict where its
// handwritten write, through the object as re-read, was stored. "" when
// every such read is replaced. The caller's other fixes are asked only
// for a read the first leaves.
func rereadBeforeHelper(files Files, opts Options, ws []*Write, hc *helperCaller, problem string) string {
	if problem != "" || hc.shared == "" || hc.sharedFix == nil {
		return problem
	}
	c, calls, fix := hc.calls[0], hc.calls, hc.sharedFix
	made := fix.TextEdits[0].Pos
	fixes := []*analysis.SuggestedFix{fix}
	asked := false
	replaced := func(call *ast.CallExpr) bool {
		for i := 0; i < len(fixes); i++ {
			if slices.ContainsFunc(fixes[i].TextEdits, func(e analysis.TextEdit) bool { return e.Pos <= call.Pos() && call.End() <= e.End }) {
				return true
			}
			if i == len(fixes)-1 && !asked {
				asked = true
				fixes = append(fixes, callerFixes(files, opts, ws, c)...)
			}
		}
		return false
	}
	gets, _ := rereads(c)
	l := newLife(&c.site, c.obj)
	for _, k := range calls {
		for _, g := range gets {
			call, _ := g.(*ast.CallExpr)
			if s, ok := g.(ast.Stmt); ok {
				call = stmtCall(s)
			}
			// A read on a path exclusive of the call's (one that returns
			// before it) leaves the patcher the call is given as it was.
			if call == nil || call.Pos() < made || call.Pos() >= k.call.Pos() || l != nil && !l.reaches(call.Pos(), k.call.Pos()) || replaced(call) {
				continue
			}
			return fmt.Sprintf("its caller at line %d reads %s again %s, after the patcher of its own writes is made, and that read stays a Get: the patcher it would pass has its base from before it, and the helper's Flush would conflict where its handwritten write, through %s as re-read, was stored",
				c.pass.Fset.Position(k.call.Pos()).Line, c.obj.Name(), rereadBy(c, g), c.obj.Name())
		}
	}
	return ""
}

// callerFixes are the fixes of c's function's status writes of c.obj,
// but for the writes that stay.
func callerFixes(files Files, opts Options, ws []*Write, c *migration) []*analysis.SuggestedFix {
	fn := c.enclosingFunc()
	var out []*analysis.SuggestedFix
	for _, o := range ws {
		call, ok := files.Calls[o.Lparen]
		if !ok || o.Generated || call.Pos() < fn.Pos() || call.End() > fn.End() || len(call.Args) < 2 || !c.isObj(call.Args[1]) {
			continue
		}
		if fix, _ := Fix(c.pass, files, opts, ws, o); fix != nil {
			out = append(out, fix)
		}
	}
	return out
}

// reuseRoots maps an anchor of the group to the anchor of the patcher
// its writes flush: its own, or, through the re-reads assigned to an
// earlier patcher (fetchPlan.reuse), the first of them.
func reuseRoots(group []*migration) func(ast.Stmt) ast.Stmt {
	reuse := map[ast.Stmt]ast.Stmt{}
	for _, h := range group {
		if h.fetch != nil && h.fetch.reuse != nil {
			reuse[h.anchor] = h.fetch.reuse
		}
	}
	return func(a ast.Stmt) ast.Stmt {
		for i := 0; reuse[a] != nil && i < len(group); i++ {
			a = reuse[a]
		}
		return a
	}
}

// pointerHeld says why the re-read get of an object held as a pointer
// (order := &v1.Widget{}) stays a Get, and the group's writes with it,
// when a write through a patcher made before it can run after it: in a
// function literal (a deferred one), or as a defer or go statement's
// call. A Fetch of a patcher of its own points order to another object
// (order = orderPatcher2.Object()), and that write would flush the
// earlier patcher, over the object as read before: nothing sent of what
// the code changed after the re-read, where the Update wrote it. Only
// f reading into the object order points to (Fetch<Kind>StatusPatcherInto,
// f.into) and assigned to that very patcher keeps a literal's write; a
// defer or go statement's call holds the patcher it was given even then,
// its base older than the re-read. "" for a value, or no such write; with
// f nil, any such write says why.
func pointerHeld(group []*migration, m *migration, get ast.Stmt, f *fetchPlan, p Patcher) string {
	if valueObj(m.obj) {
		return ""
	}
	fn, ok := m.cursor(m.enclosingFunc())
	if !ok {
		return "its function is not known"
	}
	root := reuseRoots(group)
	for _, h := range group {
		a := root(h.anchor)
		if a.Pos() >= get.Pos() {
			continue // its patcher is made at the re-read or after it
		}
		c, ok := m.cursor(h.call)
		if !ok {
			return "its function is not known"
		}
		if receiverHeld(fn, c) {
			stmt := "go"
			if _, ok := c.Parent().Node().(*ast.DeferStmt); ok {
				stmt = "defer"
			}
			return fmt.Sprintf("the write of %s at %s takes the patcher of its read at %s when its %s statement runs, before the re-read with Get at %s: it would flush that patcher, over %s as read before the re-read",
				m.obj.Name(), m.where(h.call.Pos()), m.where(a.Pos()), stmt, m.where(get.Pos()), m.obj.Name())
		}
		var lit ast.Node
		for e := range c.Enclosing((*ast.FuncLit)(nil)) {
			if fn.Contains(e) {
				lit = e.Node()
			}
		}
		switch {
		case lit == nil:
		case !p.Into:
			return fmt.Sprintf("the function literal at %s writes %s through the patcher of its read at %s, and a Fetch at the re-read with Get at %s would point %s to another object, that patcher sending nothing of the literal's change: regenerate the patchers for Fetch%sInto, which reads into the object %s points to",
				m.where(lit.Pos()), m.obj.Name(), m.where(a.Pos()), m.where(get.Pos()), m.obj.Name(), p.Type, m.obj.Name())
		case f == nil || !f.into || f.reuse == nil || root(f.reuse) != a:
			because := "a patcher of the re-read's own would send the literal's change nowhere"
			if f != nil && f.reuse == nil && m.get != nil && get == m.get {
				if _, why := reuseRoot(group, m); why != "" {
					because = why + ", and " + because // the fact that blocks, and its line
				}
			}
			return fmt.Sprintf("the function literal at %s writes %s through the patcher of its read at %s, which -fix cannot assign again at the re-read with Get at %s: %s",
				m.where(lit.Pos()), m.obj.Name(), m.where(a.Pos()), m.where(get.Pos()), because)
		}
	}
	return ""
}

// argHeldBefore is a defer or go statement registered before get, in m's
// function itself (not a function literal in it), whose call is given m's
// object (a pointer) or a part of it that is no copy of a basic value, as
// an argument or its receiver (defer r.finish(obj), defer
// r.finishStatus(&obj.Status), go watch(obj.Labels)), and that argument.
// Its arguments are evaluated when it is registered, so it holds the
// object (or the part) obj pointed to then, which a Get fills in place
// and a Fetch would not. A function literal reads the variable when it
// runs, and a value object is read again into itself: neither is held. A
// deferred status write is one of the object's writes, which pointerHeld
// and viaHeld judge.
func argHeldBefore(m *migration, get ast.Stmt) (ast.Stmt, ast.Expr) {
	if valueObj(m.obj) {
		return nil, nil
	}
	fn, ok := m.cursor(m.enclosingFunc())
	if !ok {
		return nil, nil
	}
	info := m.pass.TypesInfo
	for c := range fn.Preorder((*ast.DeferStmt)(nil), (*ast.GoStmt)(nil)) {
		if c.Node().Pos() >= get.Pos() {
			break
		}
		if inNestedLit(c, fn) {
			continue // registered when its literal runs
		}
		var call *ast.CallExpr
		switch s := c.Node().(type) {
		case *ast.DeferStmt:
			call = s.Call
		case *ast.GoStmt:
			call = s.Call
		}
		if isStatusWrite(call) {
			continue
		}
		exprs := slices.Clone(call.Args)
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			exprs = append(exprs, sel.X)
		}
		for _, e := range exprs {
			if _, basic := info.TypeOf(e).Underlying().(*types.Basic); !basic && rootVar(info, e) == m.obj {
				return c.Node().(ast.Stmt), e
			}
		}
	}
	return nil, nil
}

// argHeldWhy is why a re-read stays a Get where held, a defer or go
// statement before it, is given arg, the object or a part of it
// (argHeldBefore).
func argHeldWhy(m *migration, held ast.Stmt, arg ast.Expr) string {
	name, given := m.obj.Name(), types.ExprString(arg)
	if given != name {
		given += ", a part of " + name
	}
	return fmt.Sprintf("the %s statement at %s is given %s, evaluated when it is registered, before the re-read: the Get fills that object, where a Fetch would point %s to another and the %s call would see %s as read before",
		stmtWord(held), m.where(held.Pos()), given, name, stmtWord(held), name)
}
