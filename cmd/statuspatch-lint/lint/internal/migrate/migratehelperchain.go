package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// A helper's caller that does not read the object but hands on its own
// parameter, func (r *R) sync(ctx, w *T) error { ...; return
// r.markReady(ctx, w) }, is a link of the helper's chain: it takes the
// patcher as the helper does (its parameter becomes objPatcher
// *<Kind>StatusPatcher, obj := objPatcher.Object() starts its body when
// it uses obj beside the calls, and each call passes objPatcher), and its
// own callers, at any depth, make the patcher after their read or are
// links in turn (kueue's Reconcile -> reconcileConsumedUsage ->
// updateAdmissionFsStatus). A link moves with all its callers or none,
// under the helper's rules: unexported, no interface of the package has
// it, no test file calls it; before the calls it changes at most the
// object's status; it writes no status of the object itself; its calls
// write through one client, its receiver's or a parameter's.

// A chainLink is a caller of a helper (or of a link) that hands on its
// parameter obj: its own callers, each making the patcher or a link.
type chainLink struct {
	decl     *ast.FuncDecl
	obj      *types.Var
	objIndex int
	name     string // its patcher parameter
	callers  []*helperCaller
	unsent   bool // it changes obj outside its status before its calls: its callers' patcher leaves that unsent (chainUnsent)
	// An exported link's (Options.Module): its function, and where its
	// callers' client comes from (HelperFact).
	fn          *types.Func
	clientIndex int
	recv        bool
	clientRest  string
}

// MaxChainDepth bounds the links between a helper and a caller that reads
// (and lint's late base, which follows a helper's writes as deep).
const MaxChainDepth = 8

// linkable reports whether c, a call of h with no read of its object
// before it, hands on a parameter of the function declaring it: a link.
func linkable(h *helperMove, c *migration) bool {
	fd, ok := c.enclosingFunc().(*ast.FuncDecl)
	return ok && h.apply == nil && h.baseParam == nil && h.scope == nil && fd.Body != nil &&
		!valueObj(c.obj) && c.paramOf(c.obj) == fd.Name.Name && c.outerParamOf(c.obj) == fd.Name.Name
}

// linkCallers checks the link hc.link's function hands its parameter on
// as h's chain needs, and finds its own callers (helperCallers, at the
// next depth); it says why the chain stays.
func linkCallers(h *helperMove, hc *helperCaller, files Files, ws []*Write, opts Options) string {
	c := hc.calls[0]
	fd := c.enclosingFunc().(*ast.FuncDecl)
	name, line := fd.Name.Name, h.pass.Fset.Position(c.call.Pos()).Line
	stays := func(format string, args ...any) string {
		return fmt.Sprintf("its caller at line %d hands on %s, a parameter of %s, and ", line, c.obj.Name(), name) + fmt.Sprintf(format, args...)
	}
	fn, _ := h.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	switch {
	case fn == nil:
		return stays("%s is not a function of this package", name)
	case token.IsExported(name) && h.call == nil:
		return stays("%s is exported, in another package than the write: -fix moves an exported function of a chain only in the write's package", name)
	case token.IsExported(name) && !opts.Module:
		return stays("%s is exported and only this package is analyzed: a caller in another package would not be changed (statuspatch-lint -fix on the whole module moves it with them when every caller's write can move)", name)
	case fd.Recv != nil && h.interfaceHas(name):
		return stays("an interface of the package has a method %s: calls through it are not seen", name)
	case slices.Contains(h.chain, fd) || fd == h.decl:
		return stays("%s is called again down the chain", name)
	case len(h.chain) >= MaxChainDepth:
		return stays("the chain is deeper than %d functions, which -fix does not follow", MaxChainDepth)
	}
	if why := h.testsMayCall(name, opts); why != "" {
		return stays("%s", why)
	}
	if w := paramWrite(h.calls, files, ws, fd, c.obj); w != nil {
		return stays("%s writes %s's status itself at line %d: move them by hand", name, c.obj.Name(), h.pass.Fset.Position(w.Pos()).Line)
	}
	for i, k := range hc.calls {
		if w := callerBesideHelper(k, files, ws); w != "" {
			return stays("%s", w) // a patch helper made from it before the call
		}
		if h.clientPathKey(hc.clients[i], hc.rests[i]) != h.clientPathKey(hc.clients[0], hc.rests[0]) {
			return stays("its calls at line %d and %d write through %s and %s: one patcher writes through one client", line, h.pass.Fset.Position(k.call.Pos()).Line, c.clientText, k.clientText)
		}
		if at := clientAssigned(&k.place, hc.clients[i], fd.Body.Pos(), k.call.Pos()); at.IsValid() {
			return stays("its call at line %d names its client %s, assigned at %s", h.pass.Fset.Position(k.call.Pos()).Line, types.ExprString(hc.clients[i]), k.where(at))
		}
	}
	index, recvRoot, rest, why := linkClient(h.pass, fd, hc.clients[0], hc.rests[0])
	if why != "" {
		return stays("%s", why)
	}
	// Before its last call it changes at most the status: its calls of
	// the chain and the writes of the helpers it hands obj to that take
	// the same patcher are the patcher's.
	moved := map[*ast.CallExpr]bool{h.call: true}
	for _, call := range h.also {
		moved[call] = true
	}
	last := fd.Body.Pos()
	for _, k := range hc.calls {
		moved[k.call], last = true, max(last, k.call.Pos())
		if deferredCall(k.path, k.call) || inDefer(k.path) {
			last = fd.Body.End() // it runs as the link returns
		}
	}
	for _, call := range movingHelperWrites(c, h.decl, files, ws, opts) {
		moved[call] = true
	}
	c.moved = moved
	// A change outside the status that the write leaves unsent (a status
	// subresource write) is left unsent by the patcher, made with
	// patcher.WithNonStatusChangesUnsent() by every caller up the chain,
	// as a one-level helper's caller's is (unsentUses).
	ck := c.checks()
	if why := ck.unsentUses(h.call, func() string { return ck.checkUses(fd.Body, c.obj, fd.Body.Pos(), last, 0) }); why != "" {
		return stays("%s", why)
	}
	unsent := c.unsent
	c.unsent = false
	objIndex := slices.Index(paramVars(h.pass, fd), c.obj)
	sub := &helperMove{migration: h.migration, decl: fd, also: h.also, chain: append(slices.Clip(h.chain), fd), composeCallers: h.composeCallers}
	exported := token.IsExported(name) // its callers in other packages are the driver's (exportLinks)
	callers, why := sub.helperCallers(fn, objIndex, index, recvRoot, rest, files, ws, exported, opts)
	for _, k := range callers {
		// A caller writing the object itself passes its own writes' patcher.
		if why == "" && k.writes {
			why = callerShared(h.pass, files, ws, opts, k, h.owner)
		}
		if why == "" && k.shared != "" {
			why = sub.sameClient(k, files, ws)
		}
	}
	if why == "" && unsent {
		why = chainUnsent(callers, func() string { return ck.checkUses(fd.Body, c.obj, fd.Body.Pos(), last, 0) })
	}
	if why != "" {
		if strings.HasPrefix(why, "it has no caller in the package") {
			why = fmt.Sprintf("no function of the package calls %s: none reads %s to make the patcher", name, c.obj.Name())
		}
		return stays("%s", why)
	}
	patcher := c.obj.Name() + "Patcher"
	for i := 2; c.text().nameTaken(patcher); i++ {
		patcher = fmt.Sprintf("%sPatcher%d", c.obj.Name(), i)
	}
	hc.link = &chainLink{decl: fd, obj: c.obj, objIndex: objIndex, name: patcher, callers: callers, unsent: unsent}
	if exported {
		hc.link.fn, hc.link.clientIndex, hc.link.recv, hc.link.clientRest = fn, index, recvRoot, rest
	}
	return ""
}

// exportLinks records each exported link of callers' chains, at any
// depth, as a group of the helper's write (exportHelper): its fact for
// its callers' packages (ExportedCallers), its member for the driver,
// which adds their edits to the fix, or drops it saying why. below: a
// link between it and the helper leaves a change unsent, and so must
// every patcher made above it (HelperFact.Unsent).
func exportLinks(h *helperMove, callers []*helperCaller, p Patcher, opts Options, below bool) {
	for _, hc := range callers {
		l := hc.link
		if l == nil {
			continue
		}
		unsent := below || l.unsent
		if l.fn != nil {
			fact := HelperFact{ObjIndex: l.objIndex, ClientIndex: l.clientIndex, ClientRest: l.clientRest, Recv: l.recv, Patcher: p, At: h.at(), Unsent: unsent, Subresource: subresourceWrite(h.call)}
			h.pass.ExportObjectFact(l.fn, &fact)
			key := l.fn.Pkg().Path() + "." + l.fn.Name()
			if opts.Members != nil && !slices.ContainsFunc(*opts.Members, func(g GroupMember) bool { return g.Helper && g.Key == key && g.Pos == h.call.Pos() }) {
				pkg := p.Pkg[strings.LastIndex(p.Pkg, "/")+1:]
				*opts.Members = append(*opts.Members, exportedGroup(l.fn, h.call.Pos(),
					fmt.Sprintf("%s is a parameter of %s, handed on by %s", h.obj.Name(), h.decl.Name.Name, l.fn.Name()),
					fmt.Sprintf("have %s take a *%s.%s in place of %s and pass it on (each caller makes it with %s.New%s where it reads %s)", l.fn.Name(), pkg, p.Type, l.obj.Name(), pkg, p.Type, l.obj.Name()),
					h.audit, len(l.callers) > 0)...)
			}
		}
		exportLinks(h, l.callers, p, opts, unsent)
	}
}

// linkClient is where a link's calls' client, e followed by rest, comes
// from in fd: its receiver (index -1) or its parameter index, and the
// rest of the client after that root; or why neither.
func linkClient(pass *analysis.Pass, fd *ast.FuncDecl, e ast.Expr, rest string) (int, bool, string, string) {
	root := ast.Unparen(e)
	for sel, ok := root.(*ast.SelectorExpr); ok; sel, ok = root.(*ast.SelectorExpr) {
		root = ast.Unparen(sel.X)
	}
	id, ok := root.(*ast.Ident)
	if !ok {
		return 0, false, "", "its client " + types.ExprString(e) + rest + " is not its receiver's or a parameter's"
	}
	v := pass.TypesInfo.Uses[id]
	rest = strings.TrimPrefix(types.ExprString(e), id.Name) + rest
	if fd.Recv != nil && len(fd.Recv.List) == 1 && len(fd.Recv.List[0].Names) == 1 && pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]] == v {
		return -1, true, rest, ""
	}
	if i := slices.IndexFunc(paramVars(pass, fd), func(p *types.Var) bool { return p != nil && p == v }); i >= 0 {
		return i, false, rest, ""
	}
	return 0, false, "", "its client " + types.ExprString(e) + rest + " is not its receiver's or a parameter's"
}

// linkEdits are the edits of a link: its parameter becomes the patcher,
// its body starts with obj := patcher.Object() when it uses obj beside
// its calls, each call passes the patcher (argument objIndex of the
// function it calls), and its callers' edits follow.
func linkEdits(h *helperMove, p Patcher, hc *helperCaller, objIndex int, imports map[*ast.File]bool) ([]analysis.TextEdit, string) {
	l, c := hc.link, hc.calls[0]
	qual, importEdit, why := c.text().qualifier(p.Pkg)
	if why != "" {
		return nil, why
	}
	var edits []analysis.TextEdit
	if importEdit != nil && !imports[c.file] {
		edits = append(edits, *importEdit)
		imports[c.file] = true
	}
	for v, field := range paramFields(h.pass, l.decl) {
		if v != l.obj {
			continue
		}
		var parts []string
		for _, n := range field.Names {
			if h.pass.TypesInfo.Defs[n] == l.obj {
				parts = append(parts, l.name+" *"+qual+p.Type)
			} else {
				parts = append(parts, n.Name+" "+c.text().source(field.Type))
			}
		}
		edits = append(edits, analysis.TextEdit{Pos: field.Pos(), End: field.End(), NewText: []byte(strings.Join(parts, ", "))})
	}
	used := false
	for cur := range c.usesOf(l.decl.Body, l.obj, l.decl.Body.Pos(), l.decl.Body.End()) {
		used = used || !slices.ContainsFunc(hc.calls, func(k *migration) bool { return k.call.Args[objIndex] == cur.Node() })
	}
	if used {
		body := l.decl.Body
		edits = append(edits, analysis.TextEdit{Pos: body.Lbrace + 1, End: body.Lbrace + 1, NewText: []byte("\n" + c.text().indent(body.List[0].Pos()) + l.obj.Name() + " := " + l.name + ".Object()")})
	}
	for _, k := range hc.calls {
		arg := k.call.Args[objIndex]
		edits = append(edits, analysis.TextEdit{Pos: arg.Pos(), End: arg.End(), NewText: []byte(l.name)})
	}
	cedits, why := h.callerEdits(p, l.callers, l.objIndex, nil, imports)
	if why != "" {
		return nil, why
	}
	return append(edits, cedits...), ""
}

// uniqueEdits drops the edits made twice: a caller reached by two
// chains makes its patcher once.
func uniqueEdits(edits []analysis.TextEdit) []analysis.TextEdit {
	var out []analysis.TextEdit
	for _, e := range edits {
		if !slices.ContainsFunc(out, func(o analysis.TextEdit) bool {
			return o.Pos == e.Pos && o.End == e.End && string(o.NewText) == string(e.NewText)
		}) {
			out = append(out, e)
		}
	}
	return out
}

// helperFixes calls each with the status writes of the other functions of
// the package (not skip) that c's caller hands c.obj to between its read
// (its body's start, for a link) and end (token.NoPos: the caller's end),
// or that those hand it on to, links of their chains, each with the fix
// -fix makes of it (nil when it stays). It returns the functions c's
// caller hands c.obj to, at any depth.
func helperFixes(c *migration, skip *ast.FuncDecl, end token.Pos, files Files, ws []*Write, opts Options, each func(*ast.CallExpr, *analysis.SuggestedFix)) []*ast.FuncDecl {
	fn := c.enclosingFunc()
	root, ok := c.cursor(fn)
	if !ok {
		return nil
	}
	from := fn.Pos()
	if c.anchor != nil {
		from = c.anchor.End()
	}
	if !end.IsValid() {
		end = fn.End()
	}
	var decls []*ast.FuncDecl
	var handsOn func(root inspector.Cursor, isObj func(ast.Expr) bool, from, end token.Pos, depth int)
	handsOn = func(root inspector.Cursor, isObj func(ast.Expr) bool, from, end token.Pos, depth int) {
		for cur := range root.Preorder((*ast.CallExpr)(nil)) {
			call := cur.Node().(*ast.CallExpr)
			if call.Pos() < from || call.Pos() >= end {
				continue
			}
			fd := c.funcDecl(kube.CalledFunc(c.pass, call))
			if fd == nil || fd == skip || fd.Body == nil || slices.Contains(decls, fd) {
				continue
			}
			params := paramVars(c.pass, fd)
			for i, arg := range call.Args {
				if i >= len(params) || params[i] == nil || !isObj(arg) {
					continue
				}
				if !slices.Contains(decls, fd) {
					decls = append(decls, fd)
				}
				if body, ok := c.cursor(fd.Body); ok && depth < MaxChainDepth {
					p := params[i]
					handsOn(body, func(e ast.Expr) bool { return passesObj(c.pass.TypesInfo, p, e) }, fd.Body.Pos(), fd.Body.End(), depth+1)
				}
			}
		}
	}
	handsOn(root, c.isObj, from, end, 0)
	for _, o := range ws {
		call, ok := files.Calls[o.Lparen]
		if !ok || !slices.ContainsFunc(decls, func(fd *ast.FuncDecl) bool { return fd.Pos() <= call.Pos() && call.End() <= fd.End() }) {
			continue
		}
		if _, busy := helperFixing.LoadOrStore(call, struct{}{}); busy {
			// Asked again while its own fix runs, which asks this: the
			// writes move together or not at all, as that fix finds.
			assumeMoving(c.pass)
			each(call, &analysis.SuggestedFix{Message: "(asked again) takes the patcher its callers make"})
			continue
		}
		fix := askFix(c.pass, files, opts, ws, o)
		helperFixing.Delete(call)
		each(call, fix)
	}
	return decls
}

// askStacks holds, for each package's pass, a flag per fix helperFixes
// is asking, innermost last: set when the answer rests on a write asked
// again taken as moving (assumeMoving). Such a fix is the asker's, not
// the write's own (Fix asked for it alone decides), so it exports no
// fact and no group member: at 7a366da a write of an exported helper
// kept by its own Fix exported its HelperFact from one asked under that
// assumption, and a caller in another package moved its own write
// beside the helper's, which stayed.
var askStacks sync.Map // *analysis.Pass -> *[]bool

// askFix is Fix of o asked by helperFixes, with its flag on the stack.
func askFix(pass *analysis.Pass, files Files, opts Options, ws []*Write, o *Write) *analysis.SuggestedFix {
	v, _ := askStacks.LoadOrStore(pass, new([]bool))
	stack := v.(*[]bool)
	*stack = append(*stack, false)
	fix, _ := Fix(pass, files, opts, ws, o)
	*stack = (*stack)[:len(*stack)-1]
	return fix
}

// assumeMoving marks every fix being asked as resting on an assumption.
func assumeMoving(pass *analysis.Pass) {
	if v, ok := askStacks.Load(pass); ok {
		for i := range *v.(*[]bool) {
			(*v.(*[]bool))[i] = true
		}
	}
}

// askAssumed reports whether the innermost fix being asked rests on a
// write asked again taken as moving: it exports nothing.
func askAssumed(pass *analysis.Pass) bool {
	v, ok := askStacks.Load(pass)
	if !ok {
		return false
	}
	stack := *v.(*[]bool)
	return len(stack) > 0 && stack[len(stack)-1]
}
