package migrate

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"iter"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// A project already partly on the patcher (issue 80): the object's life
// in the write's function already holds a patcher its code made, after
// the read (p := patchers.New<Kind>StatusPatcher(c, obj), or p, err :=
// patchers.Fetch<Kind>StatusPatcher(ctx, c, key) and obj := p.Object()),
// and a handwritten write of the same object is left: later, on another
// path, or in a deferred literal. One patcher per object life, made at
// its read: the write becomes that patcher's Flush, never a second New
// (a second patcher alive at once locks on its own version, and the
// second write 409s). It stays, naming the line and the fact, where the
// patcher is made after the write (or not on its path), with an option
// the write does not take, no longer holds the object at the write, or
// when a base the write was patched from is not what the patcher holds.

// recogniseCodeLife recognises a merge patch or an update of an object
// whose function's code already makes its patcher (madePatchers).
func recogniseCodeLife(r *recognition) (*codeLife, string, bool) {
	m, w := r.m, r.w
	if w.Verb != "Update" && w.Verb != "Patch" || len(m.call.Args) < 2 {
		return nil, "", false
	}
	if m.reads().findObj(w.Kind); m.obj == nil {
		m.obj = nil
		return nil, "", false
	}
	all := madePatchers(m, r.p)
	if len(all) == 0 {
		m.obj = nil // the other shapes find it again
		return nil, "", false
	}
	c := &codeLife{migration: m, p: r.p, all: all, files: r.files, ws: r.ws, opts: r.opts}
	return c, "", true
}

// A codeLife is a write of an object beside the patcher its code made.
type codeLife struct {
	*migration
	p     Patcher
	all   []madePatcher
	files Files
	ws    []*Write
	opts  Options
	alone bool // planned as another write's neighbour: its own neighbours are not asked
	// fetches: the re-Gets of the object between the patcher's making
	// and the write, made Fetches into it (liferefetch.go).
	fetches []*fetchPlan
	// owner: the call is a helper's (passedPatcher), whose write has
	// this field owner; nil for a status write, whose options say it.
	owner *fieldOwner
}

// fix plans the write as a Flush of the code's patcher, or says why it
// stays.
func (c *codeLife) fix(p Patcher, files Files, ws []*Write, opts Options) (*analysis.SuggestedFix, string) {
	cp, why := c.plan()
	if why != "" {
		return nil, c.shapeWhy(why)
	}
	fetches, why := c.fetchEdits(cp)
	if why != "" {
		return nil, c.shapeWhy(why)
	}
	// The decision moves into the patcher's Retry where it may run again
	// (liferetry.go); else the write is its Flush, the note saying why.
	edits, call, imp, kept := c.intoRetry(cp)
	how, note := "the decision in Retry of", ""
	if c.retry == nil {
		call, how, note = fmt.Sprintf("%s.Flush(%s)", cp.via.Name(), types.ExprString(c.call.Args[0])), "a Flush of", codeLifeNote(c.migration, cp.stmt, kept)
	}
	if call != "" {
		edits = append(edits, analysis.TextEdit{Pos: c.call.Pos(), End: c.call.End(), NewText: []byte(call)})
	}
	for _, s := range c.drop {
		edits = append(edits, c.text().deleteStmt(s))
	}
	edits = mergeImport(append(edits, fetches...), imp)
	return &analysis.SuggestedFix{Message: fmt.Sprintf("%s%s (%s %s, the patcher made at %s)%s", migrateFixPrefix, p.Type, how, cp.via.Name(), c.where(cp.stmt.Pos()), note), TextEdits: edits}, ""
}

// plan finds the patcher the write flushes, or why it stays.
func (c *codeLife) plan() (madePatcher, string) {
	m, name := c.migration, c.obj.Name()
	if at, ok := m.reads().listItem(); ok {
		// A Flush of a cached copy is what the cached item row of
		// retryShapes refuses: the write stays, reported.
		o := c.all[0]
		return o, fmt.Sprintf("%s is taken from an element at %s, a copy the model cannot show fresh, and its patcher %s, made at %s, holds that copy: a Flush of it writes over what this process wrote since; make %s with Fetch%sInto(ctx, c, client.ObjectKeyFromObject(%s), %s), decide in %s.Retry, and run -fix again", name, at, o.via.Name(), m.where(o.stmt.Pos()), o.via.Name(), c.p.Type, name, name, o.via.Name())
	}
	var cp madePatcher
	found := false
	for _, list := range m.enclosingLists() {
		for _, s := range list {
			for _, o := range c.all {
				if o.stmt == s && s.End() <= m.call.Pos() && (!found || s.Pos() > cp.stmt.Pos()) {
					cp, found = o, true
				}
			}
		}
	}
	if !found && (inDefer(m.path) || deferredCall(m.path, m.call)) {
		o := c.all[0]
		return o, fmt.Sprintf("%s's patcher %s is made at %s, after the defer that registers this write: -fix moves a deferred write only onto a patcher made before its defer (a return between them would run the write with no patcher); make %s before the defer (after %s's read) and run -fix again", name, o.via.Name(), m.where(o.stmt.Pos()), o.via.Name(), name)
	}
	if !found {
		o := c.all[0]
		return o, fmt.Sprintf("%s's patcher %s is made at %s, after this write or on another path: one patcher per object life, made at its read; make %s before this write (after %s's read) and run -fix again", name, o.via.Name(), m.where(o.stmt.Pos()), o.via.Name(), name)
	}
	at := m.where(cp.stmt.Pos())
	if why := c.options(cp, at); why != "" {
		return cp, why
	}
	if sc := m.pass.Pkg.Scope().Innermost(m.call.Pos()); sc != nil {
		if _, obj := sc.LookupParent(cp.via.Name(), m.call.Pos()); obj != cp.via {
			return cp, fmt.Sprintf("%s's patcher %s, made at %s, is not what the name %s means at the write: another declaration hides it", name, cp.via.Name(), at, cp.via.Name())
		}
	}
	l := newLife(&m.site, c.obj)
	if l == nil {
		return cp, fmt.Sprintf("%s's life in %s is not seen", name, m.funcText())
	}
	l.made, l.via, l.onlyMade = cp.stmt, cp.via, true
	l.callee = func(call *ast.CallExpr, arg ast.Expr) (bool, string) { return m.checks().checkCallee(call, arg, 0) }
	// A patcher assigned again before cp (p, err = Fetch...(...), then
	// obj = p.Object(): a re-read made the patcher's) is that one's; after
	// it, on a path to the write, it ends the hold (detaches).
	deferred := inDefer(m.path) || deferredCall(m.path, m.call)
	for _, b := range l.g.Blocks {
		for _, n := range b.Nodes {
			if !b.Live || n.Pos() < cp.stmt.End() || !deferred && n.Pos() >= m.call.Pos() || !l.detaches(n, nil) || !l.reaches(cp.stmt.Pos(), n.Pos()) || !deferred && !l.reaches(n.Pos(), m.call.Pos()) {
				continue
			}
			if reassignsVia(l, n) {
				return cp, fmt.Sprintf("%s's patcher %s, made at %s, is assigned again at %s, before this write: its Flush there may write another object", name, cp.via.Name(), at, m.where(n.Pos()))
			}
			if f, why, ok := c.refetch(l, cp, n); ok {
				if why != "" {
					return cp, why
				}
				c.fetches, l.refetched = append(c.fetches, f), append(l.refetched, f.call)
				continue
			}
			if how := handedWhy(l, n, m.where); how != "" {
				return cp, fmt.Sprintf("%s is %s, after its patcher %s is made at %s: %s may no longer hold what this write would send", name, how, cp.via.Name(), at, cp.via.Name())
			}
			return cp, fmt.Sprintf("%s is %s at %s, after its patcher %s is made at %s: %s no longer holds what this write would send (make that read %s's: %s, err = Fetch%s(...) and %s = %s.Object(), then run -fix again)", name, detachHow(l, n), m.where(n.Pos()), cp.via.Name(), at, cp.via.Name(), cp.via.Name(), cp.via.Name(), c.p.Type, name, cp.via.Name())
		}
	}
	if !deferred && !l.holdsAt(m.call) {
		return cp, fmt.Sprintf("%s may not be what its patcher %s, made at %s, holds on every path to this write", name, cp.via.Name(), at)
	}
	if why := c.base(l, cp); why != "" {
		return cp, why
	}
	if why := c.neighbours(l, cp); why != "" {
		return cp, why
	}
	m.anchor, m.keep, m.via = cp.stmt, true, cp.via
	m.moved = map[*ast.CallExpr]bool{m.call: true}
	for _, call := range c.writes() {
		m.moved[call] = true // each moves with it, or keeps it (neighbours)
	}
	m.unsentOK = c.opts.NonStatusUnsent && slices.ContainsFunc(cp.opts, func(o ast.Expr) bool { return c.option(o) == "WithNonStatusChangesUnsent" })
	return cp, m.checks().unsentMutations(m.call)
}

// reassignsVia reports whether node n assigns the patcher's variable
// (or takes its address).
func reassignsVia(l *life, n ast.Node) bool {
	found := false
	ast.Inspect(n, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.AssignStmt:
			found = found || slices.ContainsFunc(x.Lhs, l.isVia)
		case *ast.UnaryExpr:
			found = found || x.Op == token.AND && l.isVia(x.X)
		}
		return !found
	})
	return found
}

// detachHow says how node n ends the patcher's hold on the object.
func detachHow(l *life, n ast.Node) string {
	how := "assigned again"
	ast.Inspect(n, func(x ast.Node) bool {
		if call, ok := x.(*ast.CallExpr); ok && len(call.Args) >= 3 && l.isGet(call) {
			how = "read again with Get"
			return false
		}
		return true
	})
	return how
}

// option names the patcher package's option o is made by ("" when it is
// not a call of one).
func (c *codeLife) option(o ast.Expr) string {
	call, ok := ast.Unparen(o).(*ast.CallExpr)
	if !ok {
		return ""
	}
	fn := kube.CalledFunc(c.pass, call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != kube.PatcherPkgPath {
		return ""
	}
	return fn.Name()
}

// options says why the code's patcher's options are not the write's: a
// field owner that differs, a write mode or token the handwritten write
// did not have, options spread from a slice or not known. The write's own
// options are a lone field owner (writeOptions.merge).
func (c *codeLife) options(cp madePatcher, at string) string {
	m := c.migration
	from := map[string]int{"Update": 2, "Patch": 3}[c.w()]
	var owner fieldOwner
	if c.owner != nil {
		owner = *c.owner
	} else if len(m.call.Args) > from {
		o, why := optionsOf(&m.place, from).merge()
		if why != "" {
			return why
		}
		owner = o
	}
	ours := ""
	if cp.made.Ellipsis.IsValid() {
		return fmt.Sprintf("its patcher %s is made at %s with options spread from a slice (%s...): which of them this write can take is not seen", cp.via.Name(), at, types.ExprString(cp.opts[len(cp.opts)-1]))
	}
	for _, o := range cp.opts {
		switch c.option(o) {
		case "WithFieldOwner":
			ours = types.ExprString(ast.Unparen(o).(*ast.CallExpr).Args[0])
		case "WithBackoff", "WithAPIReader", "WithNonStatusChangesUnsent":
		default:
			return fmt.Sprintf("its patcher %s is made at %s with the option %s, which this write does not take: its Flush would not write as the handwritten write does", cp.via.Name(), at, types.ExprString(o))
		}
	}
	if owner.expr != nil && owner.text() != ours {
		return fmt.Sprintf("the write has %s, and its patcher %s, made at %s, %s: one patcher writes with one field owner", owner.phrase(), cp.via.Name(), at, map[bool]string{true: "has none", false: "has the field owner " + ours}[ours == ""])
	}
	return ""
}

// w is the write's verb.
func (c *codeLife) w() string { return statusVerb(c.call) }

// writes is the other status writes of the object in the write's
// function, each Write with its call, in source order: the first that
// keeps this one (neighbours) or is held (viaHeld) is the same each run.
func (c *codeLife) writes() iter.Seq2[*Write, *ast.CallExpr] {
	m, fn := c.migration, c.enclosingFunc()
	var found []*Write
	for _, o := range c.ws {
		call, ok := c.files.Calls[o.Lparen]
		if o.Generated || !ok || call == m.call || len(call.Args) < 2 || call.Pos() < fn.Pos() || call.End() > fn.End() || !passesObj(m.pass.TypesInfo, c.obj, call.Args[1]) || slices.Contains(found, o) {
			continue
		}
		found = append(found, o)
	}
	slices.SortStableFunc(found, func(a, b *Write) int { return cmp.Compare(a.Lparen, b.Lparen) })
	return func(yield func(*Write, *ast.CallExpr) bool) {
		for _, o := range found {
			if !yield(o, c.files.Calls[o.Lparen]) {
				return
			}
		}
	}
}

// neighbours says why another status write of the object, on a path from
// the patcher's making to this write (before it, or any for a deferred
// write), cannot move with it: left a handwritten write, it would store a
// version the patcher does not hold, and this Flush, locked on its own,
// would conflict.
func (c *codeLife) neighbours(l *life, cp madePatcher) string {
	if c.alone {
		return ""
	}
	m := c.migration
	deferred := inDefer(m.path) || deferredCall(m.path, m.call)
	for o, call := range c.writes() {
		if !l.reaches(cp.stmt.Pos(), call.Pos()) || !deferred && !l.reaches(call.Pos(), m.call.Pos()) || call.Pos() < cp.stmt.End() {
			continue
		}
		r := newRecognition(m.pass, c.files, c.opts, c.ws, o)
		if r.m == nil {
			return fmt.Sprintf("the status write of %s at %s, after its patcher %s is made at %s, is not of a shape -fix moves: left as it is, this Flush would be locked on a version older than the one it stores", c.obj.Name(), m.where(call.Pos()), cp.via.Name(), m.where(cp.stmt.Pos()))
		}
		oc, _, _ := recogniseCodeLife(r)
		if oc == nil {
			return fmt.Sprintf("the status write of %s at %s, after its patcher %s is made at %s, is not a merge patch or an update -fix moves onto it: left as it is, this Flush would be locked on a version older than the one it stores", c.obj.Name(), m.where(call.Pos()), cp.via.Name(), m.where(cp.stmt.Pos()))
		}
		oc.alone = true
		if _, why := oc.plan(); why != "" {
			return fmt.Sprintf("the status write of %s at %s, after its patcher %s is made at %s, stays (%s): left as it is, this Flush would be locked on a version older than the one it stores", c.obj.Name(), m.where(call.Pos()), cp.via.Name(), m.where(cp.stmt.Pos()), why)
		}
	}
	return ""
}

// passedPatcher is the patcher the code of c, a caller of the helper h,
// makes for the object it hands h: the call passes it, as a caller's own
// writes' patcher (helperCaller.shared), never a second one made at the
// read. why says what blocks (the plan of a write at the call); ok is
// false when the caller's code makes none, or h takes a base or applies.
// client is the client the call hands h.
func passedPatcher(h *helperMove, c *migration, client ast.Expr, files Files, ws []*Write, opts Options) (name, why string, ok bool) {
	if h.baseParam != nil || h.apply != nil || c.obj == nil {
		return "", "", false
	}
	p := h.patcher
	for _, o := range ws {
		if p != nil {
			break
		}
		if o.Patcher != nil && o.Patcher.Type == h.patcherType {
			p = o.Patcher
		}
	}
	if p == nil {
		return "", "", false
	}
	all := madePatchers(c, *p)
	if len(all) == 0 {
		return "", "", false
	}
	saved := c.client
	c.client = client // the call's, which a re-Get must read through
	defer func() { c.client = saved }()
	cl := &codeLife{migration: c, p: *p, all: all, files: files, ws: ws, opts: opts, owner: &h.owner}
	cp, why := cl.plan()
	if why == "" && len(cl.fetches) > 0 {
		// The helper takes the patcher; the re-read planned as its Fetch
		// is the code's write's edit (fetchEdits), which a helper has not.
		name, via := c.obj.Name(), cp.via.Name()
		why = fmt.Sprintf("%s is read again with Get at %s, after its patcher %s is made at %s, and that Get would stay beside it: %s would not hold what the helper sends (make it %s's: %s, err = Fetch%s(...) and %s = %s.Object(), then run -fix again)",
			name, c.where(cl.fetches[0].get.Pos()), via, c.where(cp.stmt.Pos()), via, via, via, p.Type, name, via)
	}
	return cp.via.Name(), why, true
}
