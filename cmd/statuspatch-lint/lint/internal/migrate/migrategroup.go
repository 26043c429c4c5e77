package migrate

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// Fix returns the fix moving w onto the generated patcher of its kind,
// or why a write of a recognised shape cannot be moved ("" when the shape
// is not one -fix migrates: the other fixes and the message apply). ws
// are the package's status writes, w among them. With a fix, the string
// is what the fix leaves for a hand: a re-read of the object after a
// moved write that stays a cached Get, and why (migratekept.go). A
// reason that a helper of another package only the whole module moves
// is asked again (aloneAsked, migrateexported.go).
func Fix(pass *analysis.Pass, files Files, opts Options, ws []*Write, w *Write) (*analysis.SuggestedFix, string) {
	return aloneAsked(pass, files, opts, ws, w, fixWrite)
}

// fixWrite is Fix, the write asked once.
func fixWrite(pass *analysis.Pass, files Files, opts Options, ws []*Write, w *Write) (*analysis.SuggestedFix, string) {
	needs := opts.Needs
	opts.Needs = nil // only this write's own keptBetween adds to them
	r := newRecognition(pass, files, opts, ws, w)
	plan, why := r.recognise(true)
	if plan == nil {
		return nil, why
	}
	if why := besideHelper(r.m, files, ws); why != "" {
		return nil, why // on every route (migratepatchhelperbeside.go)
	}
	if why := keptBetween(r.m, files, ws, opts, needs); why != "" {
		return nil, why // on every route with an anchor (migratekeptbetween.go)
	}
	if why := appliedBetween(r.m, files, ws, opts); why != "" {
		return nil, why // on every route with an anchor (migratekeptbetween.go)
	}
	if why := clientAt(r.m); why != "" {
		return nil, why // on every route with an anchor (migrateclientat.go)
	}
	return plan(r.p, files, ws, opts)
}

// planGroup moves m, a write whose base is taken in its function, with
// the other status writes of its object there: they move together, the
// writes whose bases are taken at one place sharing one patcher.
func planGroup(m *migration, p Patcher, files Files, ws []*Write, opts Options) (*analysis.SuggestedFix, string) {
	pass := m.pass
	if why := gotoWhy(m); why != "" {
		return nil, why
	}
	group := []*migration{m}
	for _, o := range ws {
		if o.Generated {
			continue
		}
		call, ok := files.Calls[o.Lparen]
		if !ok || call == m.call || len(call.Args) < 2 || call.Pos() < m.enclosingFunc().Pos() || call.End() > m.enclosingFunc().End() {
			continue
		}
		if !passesObj(m.pass.TypesInfo, m.obj, call.Args[1]) {
			continue
		}
		line := pass.Fset.Position(call.Pos()).Line
		om, _, owhy := prepareMigration(pass, files, opts, o)
		switch {
		case om == nil && owhy == "":
			return nil, fmt.Sprintf("the status write of %s at line %d is not of a shape -fix moves, and the writes of %s in this function move together", m.obj.Name(), line, m.obj.Name())
		case om == nil:
			return nil, fmt.Sprintf("the status write of %s at line %d cannot be moved (%s), and the writes of %s in this function move together", m.obj.Name(), line, owhy, m.obj.Name())
		case om.anchor == nil:
			return nil, fmt.Sprintf("the status write of %s at line %d has no read of %s before it in this function, and the writes of %s in this function move together", m.obj.Name(), line, m.obj.Name(), m.obj.Name())
		}
		group = append(group, om)
	}
	if why := groupOwners(m, group); why != "" {
		return nil, why
	}
	moved := map[*ast.CallExpr]bool{}
	for _, g := range group {
		moved[g.call] = true
	}
	// A chain's writes, handed the object before m's write, that take
	// this patcher (sharedPatcher): at any depth, as a helper's one
	// call down (compose).
	for _, call := range movingHelperWrites(m, nil, files, ws, opts) {
		moved[call] = true
	}
	for _, g := range group {
		g.moved = moved
		if g.baseVar != nil {
			n := 0
			for _, h := range group {
				if h.baseVar == g.baseVar {
					n++
				}
			}
			g.keep = m.uses(g.baseVar) != n
		}
		if g.copyVar != nil {
			// The copy stays only for uses other than the patches the
			// group drops (p1 := client.MergeFrom(orig), p2 := ...).
			dropped := map[ast.Stmt]bool{}
			for _, h := range group {
				if h.copyVar == g.copyVar {
					for _, d := range h.drop {
						dropped[d] = true
					}
				}
			}
			g.keep = m.uses(g.copyVar) != len(dropped)
		}
		if g.lateVar != nil {
			n := 0
			for _, h := range group {
				if h.lateVar == g.lateVar {
					n++
				}
			}
			g.lateKeep = m.uses(g.lateVar) != n
		}
	}
	if why := planFetches(group, p); why != "" {
		return nil, m.shapeWhy(why)
	}
	if why := planRereads(group, p); why != "" {
		return nil, m.shapeWhy(why)
	}
	if why := deferHeld(m, group, files, ws); why != "" {
		return nil, m.shapeWhy(why)
	}
	if why := overlapping(m, group); why != "" {
		return nil, why
	}
	for _, g := range group {
		g.compose = true // a helper writing the object takes the patcher (migratehelper.go)
		if why := cmp.Or(g.checks().unsentMutations(g.call), clientAt(g)); why != "" {
			if g == m {
				return nil, why
			}
			return nil, fmt.Sprintf("the status write of %s at line %d cannot be moved (%s), and the writes of %s in this function move together", m.obj.Name(), pass.Fset.Position(g.call.Pos()).Line, why, m.obj.Name())
		}
	}
	spreadUnsent(group)
	for _, g := range group {
		if why := planRetry(g); why != "" {
			if g == m {
				return nil, why
			}
			return nil, fmt.Sprintf("the status write of %s at line %d cannot be moved (%s), and the writes of %s in this function move together", m.obj.Name(), pass.Fset.Position(g.call.Pos()).Line, why, m.obj.Name())
		}
	}
	fix, why := m.edits(p, m.patcherName(group))
	for _, g := range group {
		switch {
		case fix == nil || g.callback == nil:
		case g != m:
			return nil, fmt.Sprintf("the status write of %s at line %d hands it to the function %s, and the writes of %s in this function move together", m.obj.Name(), pass.Fset.Position(g.call.Pos()).Line, g.callback.name, m.obj.Name())
		default:
			// Its callers' functions decide (migratecallback.go).
			if why := exportCallback(m, opts, files); why != "" {
				return nil, why
			}
		}
	}
	if note := m.keptGets.note(m.pass.Fset, m.obj, p); fix != nil && note != "" {
		fix.Message += "; " + note
		return fix, note
	}
	return fix, why
}

// freePatcherName is obj+"Patcher", or with 2, 3... the first name not
// taken in the file's function (a patcher made alone, not in a group).
func (m *migration) freePatcherName() string {
	name := m.obj.Name() + "Patcher"
	for i := 2; m.text().nameTaken(name); i++ {
		name = m.obj.Name() + "Patcher" + strconv.Itoa(i)
	}
	return name
}

// patcherName names the patcher of m's anchor: the group's anchors, in
// source order, take the first free names obj+"Patcher", then with 2, 3...
// so each write of the group computes the same names.
func (m *migration) patcherName(group []*migration) string {
	// A re-read fetched into a spanning patcher's variable takes its name.
	reuse := map[ast.Stmt]ast.Stmt{}
	for _, g := range group {
		if g.fetch != nil && g.fetch.reuse != nil {
			reuse[g.anchor] = g.fetch.reuse
		}
	}
	target := m.anchor
	for i := 0; reuse[target] != nil && i < len(group); i++ {
		target = reuse[target]
	}
	var anchors []ast.Stmt
	for _, g := range group {
		if !slices.Contains(anchors, g.anchor) && reuse[g.anchor] == nil {
			anchors = append(anchors, g.anchor)
		}
	}
	slices.SortFunc(anchors, func(a, b ast.Stmt) int { return int(a.Pos()) - int(b.Pos()) })
	taken := map[string]bool{}
	name := ""
	for _, a := range anchors {
		name = m.obj.Name() + "Patcher"
		for i := 2; m.text().nameTaken(name) || taken[name]; i++ {
			name = m.obj.Name() + "Patcher" + strconv.Itoa(i)
		}
		taken[name] = true
		if a == target {
			return name
		}
	}
	return name
}

// helperGroup is the other status writes of a helper's parameter in the
// helper (h.decl): a sub-reconciler's writes on each phase's path, or one
// after another. With h's they take the one patcher its callers pass,
// each a Flush of it: its Flush makes the response the next base, as an
// Update made it the object, so a second write carries the first one's
// resourceVersion as the handwritten code's did. It says why they cannot
// (a write of another shape or client, the object read again in the
// helper).
func helperGroup(h *helperMove, files Files, ws []*Write, opts Options) ([]*ast.CallExpr, string) {
	fd, name, obj := h.decl, h.decl.Name.Name, h.obj.Name()
	var also []*ast.CallExpr
	for _, o := range ws {
		call, ok := files.Calls[o.Lparen]
		if !ok || call == h.call || call.Pos() < fd.Pos() || call.End() > fd.End() || len(call.Args) < 2 || !h.isObj(call.Args[1]) && (h.alias == nil || !passesObj(h.pass.TypesInfo, h.alias, call.Args[1])) {
			continue
		}
		line := h.pass.Fset.Position(call.Pos()).Line
		if h.apply != nil || h.baseParam != nil {
			return nil, fmt.Sprintf("%s writes it more than once (at line %d too): -fix moves several writes of a helper's parameter only when each is an Update or a merge patch of it", name, line)
		}
		if get := getInto(&h.place, fd.Body, h.obj); get != nil {
			return nil, fmt.Sprintf("%s writes it more than once and reads it again with Get at %s: the patcher its callers pass would not hold that read", name, h.where(get.Pos()))
		}
		om, _, owhy := prepareMigration(h.pass, files, opts, o)
		switch {
		case om == nil && owhy == "":
			return nil, fmt.Sprintf("its status write at line %d is not of a shape -fix moves, and the writes of %s in %s move together", line, obj, name)
		case om == nil:
			return nil, fmt.Sprintf("its status write at line %d cannot be moved (%s), and the writes of %s in %s move together", line, owhy, obj, name)
		case om.helper == nil || om.helper.decl != fd || om.apply != nil || om.helper.baseParam != nil:
			return nil, fmt.Sprintf("its status write at line %d is not an Update or a merge patch of its parameter, and the writes of %s in %s move together", line, obj, name)
		case h.clientKey(om.client) != h.clientKey(h.client):
			return nil, fmt.Sprintf("its status write at line %d goes through %s, not %s: one patcher writes through one client", line, types.ExprString(om.client), h.clientText)
		case om.owner.name() != h.owner.name():
			return nil, fmt.Sprintf("its status write at line %d has another field owner than the write at line %d: one patcher writes with one", line, h.pass.Fset.Position(h.call.Pos()).Line)
		}
		also = append(also, call)
	}
	return also, ""
}

// helperFixing holds the status writes whose Fix movingHelperWrites is
// asking, so that two helpers each called before the other by some
// caller do not ask each other's without end: a write asked again while
// its Fix runs is taken as moving with the one asking (helperFixes), and
// the first Fix decides for both.
var helperFixing sync.Map // *ast.CallExpr -> struct{}

// movingHelperWrites is the status writes of the other functions of the
// package (not skip) that c's caller hands c.obj to between its read and
// c.call, and that move by taking the patcher: a phase's sub-reconciler
// called on an exclusive path before this one (reconcileDelete before
// reconcileNormal). They are writes of the caller's life through the
// patcher it passes them too, no change unseen by it.
func movingHelperWrites(c *migration, skip *ast.FuncDecl, files Files, ws []*Write, opts Options) []*ast.CallExpr {
	var moving []*ast.CallExpr
	var fixes []*analysis.SuggestedFix
	decls := helperFixes(c, skip, c.call.Pos(), files, ws, opts, func(call *ast.CallExpr, fix *analysis.SuggestedFix) {
		if fix != nil && strings.Contains(fix.Message, " takes the patcher its callers make") {
			moving, fixes = append(moving, call), append(fixes, fix)
		}
	})
	var own []*ast.CallExpr
	for i, call := range moving {
		if !otherPatcher(c, decls, fixes[i]) {
			own = append(own, call)
		}
	}
	return own
}

// helpersUnsent reports whether another function of the package (not
// skip) that c's caller hands c.obj to after its read, before or after
// c.call, moves its write by taking the patcher the caller makes at
// c.anchor with patcher.WithNonStatusChangesUnsent(): the caller makes
// one patcher for all its helpers' calls, with the option when one needs
// it (unsentCalls), whichever is asked first; an exported function of
// another package it hands c.obj to counts (importedUnsent). kueue's multikueue
// cqReconciler calls removeQuotaAutomationCondition on one path and
// updateQuotaAutomationCondition after the spec's quotas change on
// another: at 676a4e9 each move made its own patcher there, one with the
// option, one without, two declarations of one name.
func helpersUnsent(c *migration, skip *ast.FuncDecl, files Files, ws []*Write, opts Options) bool {
	// Each other helper's own need is asked, not what it asks of the
	// others again: at 422d8dc that recursion made -fix on one caller of
	// n helpers take n! Fix calls (8 helpers: 89 s, 0.36 s at 676a4e9).
	if importedUnsent(c) {
		return true
	}
	fn := c.enclosingFunc()
	if _, busy := unsentAsking.LoadOrStore(fn, struct{}{}); busy {
		return false
	}
	defer unsentAsking.Delete(fn)
	unsent := false
	helperFixes(c, skip, token.NoPos, files, ws, opts, func(_ *ast.CallExpr, fix *analysis.SuggestedFix) {
		if fix == nil {
			return
		}
		for _, e := range fix.TextEdits {
			// the caller's patcher, made after the anchor or in place of a base
			at := e.Pos == c.anchor.End() || e.Pos == c.anchor.Pos() && e.End == c.anchor.End()
			unsent = unsent || at && strings.Contains(string(e.NewText), "WithNonStatusChangesUnsent()")
		}
	})
	return unsent
}

// unsentAsking holds the callers whose helpersUnsent is running: the
// other helpers' Fix it asks answers with their own calls' need alone.
var unsentAsking sync.Map // ast.Node -> struct{}

// paramAlias makes h a helper's move when the write's object is a local
// m := p of a function's body, p its parameter: h.obj becomes p, and
// h.alias m, whose writes are p's. m is defined once, by a statement of
// the body (so before every use), and neither it nor p is assigned again
// or has its address taken: m is p all along. h.decl stays nil otherwise.
func paramAlias(h *helperMove) {
	fd, ok := h.enclosingFunc().(*ast.FuncDecl)
	if !ok || fd.Body == nil {
		return
	}
	def, val := h.definition(h.obj)
	id, ok := ast.Unparen(val).(*ast.Ident)
	if def == nil || !ok || !slices.Contains(fd.Body.List, def) {
		return
	}
	p, _ := h.pass.TypesInfo.Uses[id].(*types.Var)
	if p == nil || !types.Identical(p.Type(), h.obj.Type()) || h.paramOf(p) != fd.Name.Name {
		return
	}
	for _, v := range []*types.Var{h.obj, p} {
		for cur := range h.usesOf(fd, v, fd.Pos(), fd.End()) {
			switch par := cur.Parent().Node().(type) {
			case *ast.AssignStmt:
				if isLHS(par, cur.Node()) {
					return
				}
			case *ast.UnaryExpr:
				if par.Op == token.AND {
					return
				}
			}
		}
	}
	h.alias, h.aliasDef, h.obj, h.decl = h.obj, def, p, fd
}

// helperUses checks the helper's uses of its object up to its last
// write (last): of the parameter, and of its alias after the alias's
// definition, which is no use of its own.
func helperUses(h *helperMove, last token.Pos) string {
	body := h.decl.Body
	if h.alias == nil {
		return h.checks().checkUses(body, h.obj, body.Pos(), last, 0)
	}
	for _, r := range []struct {
		v        *types.Var
		from, to token.Pos
	}{{h.obj, body.Pos(), h.aliasDef.Pos()}, {h.obj, h.aliasDef.End(), last}, {h.alias, h.aliasDef.End(), last}} {
		if why := h.checks().checkUses(body, r.v, r.from, r.to, 0); why != "" {
			return why
		}
	}
	return ""
}

// gotoWhy says why the writes of a function with a goto stay: -fix
// declares patchers (orderPatcher2 := ..., or err with a Fetch) between
// statements, and a goto may jump over one (which does not compile) or
// to code that flushes a patcher a failed Fetch left nil.
func gotoWhy(m *migration) string {
	why := ""
	ast.Inspect(m.enclosingFunc(), func(n ast.Node) bool {
		if b, ok := n.(*ast.BranchStmt); ok && b.Tok == token.GOTO && why == "" {
			why = "the function has a goto at " + m.where(b.Pos()) + ", which may jump over a patcher -fix declares"
		}
		return why == ""
	})
	return why
}
