package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// An exported helper over an interface of the module that has
// client.Object's methods, in a package of its own (issue 80: a
// kubebuilder project's conditions.Set(ctx, c, obj Conditioned, ...),
// called from every reconciler with its own kind), moves as an exported
// concrete-kind helper does (migrateexported.go): under the whole
// module's driver, with all its callers or none (lint.ResolveGroups).
// The helper takes *patcher.Patcher[T], T constrained by the interface
// (the body's calls of its methods compile on the patcher's Object()),
// its write Flush; each caller passes its own kind's patcher's
// Patcher(): the one its own writes of the object use (one life), or one
// made after its Get. The body's interface calls on the object are
// assumed for the driver, which judges them by every implementation in
// the module (paramsimplsrecv.go, lint.ResolveIfaceCalls). A per-package
// pass keeps the write, saying so.

// noCallersWhy is findCallers' reason when the package calls fn nowhere.
func noCallersWhy(name string) string { return name + " has no caller in its package" }

// ofModule reports whether pkg is the helper's package or one of its
// module's.
func (h *kindHelper) ofModule(pkg *types.Package) bool {
	if pkg == nil {
		return false
	}
	if pkg == h.pass.Pkg {
		return true
	}
	mod := ""
	if h.pass.Module != nil {
		mod = h.pass.Module.Path
	}
	return mod != "" && (pkg.Path() == mod || strings.HasPrefix(pkg.Path(), mod+"/"))
}

// genericAdvice is how an exported helper over an interface moves by hand.
func (h *kindHelper) genericAdvice() string {
	return fmt.Sprintf("have it take a *patcher.Patcher[T] (T %s) in place of %s, each caller passing its kind's patcher's Patcher(), and call its Flush(ctx) in place of this write",
		h.objectText, h.params[h.obj].Name())
}

// exportedWhy says why the exported helper over an interface stays, ""
// when it moves with its callers in other packages (h.exported). why is
// findCallers' of its own package.
func (h *kindHelper) exportedWhy(why string, opts Options) string {
	name := h.fd.Name.Name
	fact := ""
	switch {
	case !opts.Module:
		fact = name + " is exported and only this package is analyzed: a caller in another package would not be changed (statuspatch-lint -fix on the whole module moves it with them when every caller can take the patcher)"
	case h.base >= 0:
		fact = name + " is exported and takes its base as a parameter: -fix moves an exported helper's callers only for an Update"
	case len(h.callers) > 0 || why != noCallersWhy(name):
		fact = name + " is exported and its own package calls it: -fix moves an exported helper over an interface only with callers in other packages"
	case h.clientIndex() < 0:
		fact = name + "'s status write is not made with a client parameter, which its callers in other packages would make the patcher with"
	default:
		h.exported = true
		return ""
	}
	return fact + "; by hand: " + h.genericAdvice()
}

// clientIndex is the index of the parameter the write's client is, or -1.
func (h *kindHelper) clientIndex() int {
	c, ok := statusReceiver(h.call)
	if !ok {
		return -1
	}
	return h.paramIndex(c)
}

// bodyWhy says why the helper's uses of its object before the write
// would not leave the patcher's Flush what the write sent: a change
// outside the status (Flush refuses it), or a method of the interface
// whose implementations are not followed (a per-package pass; under the
// module's driver the call is assumed, and judged by the driver).
func (h *kindHelper) bodyWhy(opts Options) string {
	obj := h.params[h.obj]
	m := &migration{site: *h.site, obj: obj, module: opts.Module, assumed: opts.Assumed, unsentOK: opts.NonStatusUnsent}
	m.recvAssumed = moduleAssumed(opts)
	if why := m.checks().checkUses(h.fd.Body, obj, h.fd.Body.Pos(), h.call.Pos(), 1); why != "" {
		return obj.Name() + " is used before the write: " + why
	}
	return ""
}

// exportGroup records the exported helper's fix as its group's: its
// fact for the callers' packages, its member for the driver.
func (h *kindHelper) exportGroup(opts Options) {
	if askAssumed(h.pass) {
		return // an asked fix's assumption (askStacks)
	}
	at := h.pass.Fset.Position(h.call.Pos())
	fact := HelperFact{ObjIndex: h.obj, ClientIndex: h.clientIndex(), DropClient: h.client >= 0, Generic: true,
		At: fmt.Sprintf("%s:%d", at.Filename[strings.LastIndex(at.Filename, "/")+1:], at.Line), Subresource: subresourceWrite(h.call)}
	h.pass.ExportObjectFact(h.fn, &fact)
	if opts.Members == nil {
		return
	}
	key := h.fn.Pkg().Path() + "." + h.fn.Name()
	if slices.ContainsFunc(*opts.Members, func(g GroupMember) bool { return g.Helper && g.Key == key && g.Pos == h.call.Pos() }) {
		return
	}
	param := h.params[h.obj].Name() + " is a parameter of " + h.fn.Name()
	*opts.Members = append(*opts.Members, exportedGroup(h.fn, h.call.Pos(), param, h.genericAdvice(), opts.Audit, false)...)
}

// genericCallerMember is the package's part in the move of fn, an
// exported helper over an interface (HelperFact.Generic): each kind its
// calls pass, with that kind's patcher, its Patcher() the argument.
func genericCallerMember(pass *analysis.Pass, files Files, ws []*Write, opts Options, fn *types.Func, fact *HelperFact) GroupMember {
	member := GroupMember{Key: fn.Pkg().Path() + "." + fn.Name()}
	fail := func(format string, args ...any) GroupMember {
		member.Why = "in package " + pass.Pkg.Path() + ", " + fmt.Sprintf(format, args...)
		return member
	}
	var kinds []types.Type
	pl := &place{calls: calls{pass: pass, insp: files.Inspector}}
	for _, f := range pass.Files {
		for cur := range pl.usesOf(f, fn, f.FileStart, f.FileEnd) {
			line := pass.Fset.Position(cur.Node().Pos()).Line
			call, _ := callOf(cur)
			if call == nil || fact.ObjIndex >= len(call.Args) {
				return fail("it is used at line %d other than in a call", line)
			}
			t := pass.TypesInfo.TypeOf(call.Args[fact.ObjIndex])
			if opts.PatcherOf == nil || opts.PatcherOf(t) == nil {
				return fail("its call at line %d passes %s, whose kind has no generated patcher", line, types.ExprString(call.Args[fact.ObjIndex]))
			}
			if !slices.ContainsFunc(kinds, func(k types.Type) bool { return types.Identical(k, t) }) {
				kinds = append(kinds, t)
			}
		}
	}
	var drop []int
	if fact.DropClient {
		drop = []int{fact.ClientIndex}
	}
	imports := map[string]map[*ast.File]bool{}
	unsentOK := opts.NonStatusUnsent && fact.Subresource
	var edits []analysis.TextEdit
	first := token.NoPos
	for _, k := range kinds {
		p := *opts.PatcherOf(k)
		h := &helperMove{migration: &migration{site: site{place: place{calls: calls{pass: pass, insp: files.Inspector}}}, audit: opts.Audit, unsentOK: unsentOK, patcherType: p.Type},
			composeCallers: true, patcher: &p, kindOnly: k, argSuffix: ".Patcher()"}
		callers, problem := h.helperCallers(fn, fact.ObjIndex, fact.ClientIndex, false, "", files, ws, false, opts)
		var fresh []analysis.TextEdit // the callers that make a patcher at the call
		for _, hc := range slices.Clone(callers) {
			if problem == "" && hc.link != nil {
				problem = fmt.Sprintf("its caller at line %d hands on its own parameter: -fix moves an exported helper over an interface only with callers that read the object", pass.Fset.Position(hc.calls[0].call.Pos()).Line)
			}
			if problem == "" && hc.writes {
				hc.shared, problem = sharedPatcher(pass, files, ws, opts, hc, fieldOwner{})
			}
			if problem == "" && hc.shared != "" {
				if problem = sharedHolds(pass, files, ws, opts, hc); problem != "" {
					if edits, ok := freshAtCall(pass, files, ws, opts, p, hc, drop); ok {
						fresh, problem = append(fresh, edits...), ""
						callers = slices.DeleteFunc(callers, func(o *helperCaller) bool { return o == hc })
					}
				}
			}
		}
		if problem != "" {
			return fail("%s", problem)
		}
		if imports[p.Pkg] == nil {
			imports[p.Pkg] = map[*ast.File]bool{}
		}
		kedits, why := h.callerEdits(p, callers, fact.ObjIndex, drop, imports[p.Pkg])
		if why != "" {
			return fail("%s", why)
		}
		edits = append(append(edits, kedits...), fresh...)
		for _, hc := range callers {
			if pos := hc.calls[0].call.Pos(); !first.IsValid() || pos < first {
				first = pos
			}
			if hc.shared != "" {
				member.Shares = append(member.Shares, hc.sharedAt)
			}
		}
	}
	if len(kinds) == 0 {
		return member
	}
	member.Pos, member.Edits = first, uniqueEdits(edits)
	return member
}

// sharedHolds says why the patcher of a caller's own writes, which its
// call would pass, may no longer hold the object at the call: a pointer
// read again (a conflict loop's Get, which -fix makes another patcher's
// Fetch, db = dbPatcher2.Object()) or assigned after the patcher is made
// (lifehold.go); a local value (&cronJob) assigned whole, or written by
// a move naming another patcher (a re-read made a patcher of its own).
// "" when it holds it on every path.
func sharedHolds(pass *analysis.Pass, files Files, ws []*Write, opts Options, hc *helperCaller) string {
	c := hc.calls[0]
	fn := c.enclosingFunc()
	var anchor ast.Stmt
	var names []string
	for _, o := range ws {
		call, ok := files.Calls[o.Lparen]
		if !ok || call.Pos() < fn.Pos() || call.End() > fn.End() || len(call.Args) < 2 || !c.isObj(call.Args[1]) {
			continue
		}
		if call.Pos() == hc.sharedAt {
			if om, _, _ := prepareMigration(pass, files, opts, o); om != nil {
				anchor = om.anchor
			}
		}
		if fix, _ := Fix(pass, files, opts, ws, o); fix != nil {
			if n := onePatcher(fix); n != "" && !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	l := newLife(&c.site, c.obj)
	line := pass.Fset.Position(c.call.Pos()).Line
	if anchor == nil || l == nil {
		return fmt.Sprintf("its caller at line %d: where the patcher %s of its own writes is made is not seen", line, hc.shared)
	}
	why := fmt.Sprintf("its caller at line %d passes %s, which may no longer be the object the patcher %s of its own writes holds there (%s is read again or assigned after %s): that patcher would write another object's status", line, c.obj.Name(), hc.shared, c.obj.Name(), c.where(anchor.Pos()))
	if valueObj(c.obj) {
		if len(names) != 1 || names[0] != hc.shared {
			return why
		}
		for cur := range c.usesOf(fn, c.obj, anchor.End(), c.call.Pos()) {
			if as, ok := cur.Parent().Node().(*ast.AssignStmt); ok && slices.Contains(as.Lhs, cur.Node().(ast.Expr)) {
				return why
			}
		}
		return ""
	}
	l.made, l.onlyMade = anchor, true
	if is, ok := anchor.(*ast.IfStmt); ok && is.Init != nil {
		l.made = is.Init // the graph's node is the if's init: err := c.Get(...)
	}
	for _, k := range hc.calls {
		if !l.holdsAt(k.call) {
			if l.changedAt != nil {
				return fmt.Sprintf("its caller at line %d passes %s, which may no longer be the object the patcher %s of its own writes holds there: %s is read again or assigned at %s, after %s, and that patcher would write the status of the object it holds, not %s's", pass.Fset.Position(k.call.Pos()).Line, c.obj.Name(), hc.shared, c.obj.Name(), c.where(l.changedAt.Pos()), c.where(anchor.Pos()), c.obj.Name())
			}
			return why
		}
	}
	return ""
}

// freshAtCall makes a caller's patcher right before its call, over the
// object as the call is given it, when the patcher of its own writes
// may no longer hold it there (sharedHolds) and, on every path to the
// call, the object was last read with Get or had its status written and
// nothing changed it since (life.freshAt): the new patcher's base is
// what the server stored, so its Flush is locked on the version the
// write it replaces would have sent (a conflict loop's Fetch and Retry
// leave db = dbPatcher2.Object(), the stored object, out of that
// patcher's scope). A pointer object only, passed by every call of the
// caller; the calls' arguments pass its Patcher().
func freshAtCall(pass *analysis.Pass, files Files, ws []*Write, opts Options, p Patcher, hc *helperCaller, drop []int) ([]analysis.TextEdit, bool) {
	if len(hc.calls) != 1 || valueObj(hc.calls[0].obj) {
		return nil, false
	}
	c := hc.calls[0]
	l := newLife(&c.site, c.obj)
	if l == nil {
		return nil, false
	}
	var node ast.Node
	for _, b := range l.g.Blocks {
		for _, n := range b.Nodes {
			if b.Live && n.Pos() <= c.call.Pos() && c.call.End() <= n.End() {
				node = n
			}
		}
	}
	var stmt ast.Stmt
	if lists := c.enclosingLists(); len(lists) > 0 {
		for _, s := range lists[0] {
			if s.Pos() <= c.call.Pos() && c.call.End() <= s.End() {
				stmt = s
			}
		}
	}
	if node == nil || stmt == nil || !l.freshAt(node) {
		return nil, false
	}
	// Not a name the function declares, nor one its writes' moves make.
	taken := map[string]bool{}
	fn := c.enclosingFunc()
	for _, o := range ws {
		call, ok := files.Calls[o.Lparen]
		if !ok || call.Pos() < fn.Pos() || call.End() > fn.End() {
			continue
		}
		if fix, _ := Fix(pass, files, opts, ws, o); fix != nil {
			for _, e := range fix.TextEdits {
				for _, n := range patcherVar.FindAllString(string(e.NewText), -1) {
					taken[n] = true
				}
			}
		}
	}
	name := c.obj.Name() + "Patcher"
	for i := 2; taken[name] || c.text().nameTaken(name); i++ {
		name = fmt.Sprintf("%sPatcher%d", c.obj.Name(), i)
	}
	qual, imp, why := c.text().qualifier(p.Pkg)
	if why != "" {
		return nil, false
	}
	ctor := fmt.Sprintf("%s := %sNew%s(%s, %s)\n%s", name, qual, p.Type, c.clientText, c.obj.Name(), c.text().indent(stmt.Pos()))
	edits := []analysis.TextEdit{{Pos: stmt.Pos(), End: stmt.Pos(), NewText: []byte(ctor)}, sharedArgs(c, name+".Patcher()", objIndexOf(c, hc), drop)}
	if imp != nil {
		edits = append(edits, *imp)
	}
	return edits, true
}

// objIndexOf is the index of the call's argument that is its object.
func objIndexOf(c *migration, _ *helperCaller) int {
	return slices.IndexFunc(c.call.Args, func(a ast.Expr) bool { return c.isObj(a) })
}
