package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// The callers of a patch helper (migratepatchhelper.go): each makes it
// with a generated kind it read by Get, holds it in a variable, and
// hands the same object to its Patch; the kinds' patchers share one
// package, which declares For.

// checkCallers says why a caller keeps the helper, naming its line; ""
// with h.pkg set when every caller is of the shape.
func (h *patchHelper) checkCallers(opts Options) string {
	ctorFn, _ := h.pass.TypesInfo.Defs[h.ctor.Name].(*types.Func)
	if ctorFn == nil {
		return h.ctor.Name.Name + " is not a function"
	}
	patchIndex := slices.Index(paramVars(h.pass, h.method), h.obj)
	n := 0
	for _, cur := range usesIn(h.calls, ctorFn) {
		call, _ := callOf(cur)
		if call == nil {
			return fmt.Sprintf("%s is used at %s other than called", h.ctor.Name.Name, h.where(cur.Node().Pos()))
		}
		if why := h.checkCaller(opts, cur, call, patchIndex); why != "" {
			return why
		}
		n++
	}
	if n == 0 {
		return h.ctor.Name.Name + " has no caller in its package"
	}
	return ""
}

// checkCaller checks one call of the constructor.
func (h *patchHelper) checkCaller(opts Options, cur inspector.Cursor, call *ast.CallExpr, patchIndex int) string {
	at := h.where(call.Pos())
	v := h.madeInto(cur)
	if v == nil || h.ctorObj >= len(call.Args) || call.Ellipsis.IsValid() {
		return fmt.Sprintf("its constructor's call at %s is not assigned to a variable of its own (helper := %s(...))", at, h.ctor.Name.Name)
	}
	arg := call.Args[h.ctorObj]
	o := identOf(h.pass, arg)
	t := h.pass.TypesInfo.TypeOf(arg)
	kind := types.TypeString(t, types.RelativeTo(h.pass.Pkg))
	if n := kube.NamedOf(t); n != nil {
		kind = n.Obj().Name()
	}
	switch p := opts.PatcherOf(t); {
	case o == nil:
		return fmt.Sprintf("its constructor's call at %s passes %s, not a variable", at, types.ExprString(arg))
	case types.IsInterface(t):
		return fmt.Sprintf("its constructor's call at %s passes %s as %s, an interface: which kind it holds, and so whether patchers.For has its patcher, is not seen", at, o.Name(), types.TypeString(t, func(p *types.Package) string { return p.Name() }))
	case p == nil:
		return fmt.Sprintf("its constructor's call at %s passes %s, a %s, whose kind has no generated patcher", at, o.Name(), kind)
	case h.pkg != "" && p.Pkg != h.pkg:
		return fmt.Sprintf("its constructor's call at %s passes %s, a %s, whose patcher is in %s, not %s with the other callers' kinds': one For makes the patchers of its package's kinds", at, o.Name(), kind, p.Pkg, h.pkg)
	case !dispatchesFor(h, p.Pkg, kube.NamedOf(t)):
		return fmt.Sprintf("its constructor's call at %s passes %s, a %s, whose patcher's package %s has no For (generated beside the API types, not with output:dir)", at, o.Name(), kind, p.Pkg)
	default:
		h.pkg = p.Pkg
	}
	fn := enclosingFuncOf(cur)
	if fn == nil {
		return fmt.Sprintf("its constructor's call at %s is outside a function", at)
	}
	if !h.readBefore(fn, o, call) {
		return fmt.Sprintf("%s is not read with Get before the constructor's call at %s in its function: the patcher's base would not be the object the server stored", o.Name(), at)
	}
	for u := range h.usesOf(fn, o, call.End(), fn.End()) {
		if as, ok := u.Parent().Node().(*ast.AssignStmt); ok && isLHS(as, u.Node()) {
			return fmt.Sprintf("%s is assigned at %s, after the helper is made from it at %s: Patch would write another object than the patcher's", o.Name(), h.where(as.Pos()), at)
		}
	}
	for _, u := range usesIn(h.calls, v) {
		sel, _ := u.Parent().Node().(*ast.SelectorExpr)
		pc, _ := u.Parent().Parent().Node().(*ast.CallExpr)
		if sel == nil || sel.X != u.Node() || pc == nil || pc.Fun != ast.Expr(sel) || h.pass.TypesInfo.Uses[sel.Sel] != h.methodFunc() {
			return fmt.Sprintf("%s is used at %s other than by %s.%s(...): -fix moves a helper whose every use is its %s", v.Name(), h.where(u.Node().Pos()), v.Name(), h.method.Name.Name, h.method.Name.Name)
		}
		if patchIndex < 0 || patchIndex >= len(pc.Args) || identOf(h.pass, pc.Args[patchIndex]) != o {
			return fmt.Sprintf("%s.%s at %s is given %s, not %s, which %s was made from: the patcher writes the object it is made with", v.Name(), h.method.Name.Name, h.where(pc.Pos()), types.ExprString(pc.Args[max(patchIndex, 0)]), o.Name(), v.Name())
		}
	}
	for p := cur.Parent(); p.Node() != nil; p = p.Parent() {
		if d, ok := p.Node().(*ast.FuncDecl); ok {
			fn = d // the writes of o in closures of it too
		}
	}
	return h.alongside(opts, fn, o, call)
}

// alongside says why the helper made by call from o is not the only
// writer of o's status in its function declaration fn, naming the line:
// another patch helper made from o there (by its constructor or
// another's), or a status write of o after call. Either would be a patcher of o of its
// own, alive with the helper's, and the later Flush would conflict on
// every reconcile where the blind merge patches both succeeded (as
// scopeCaller refuses; besideHelper keeps the write too).
func (h *patchHelper) alongside(opts Options, fn ast.Node, o *types.Var, call *ast.CallExpr) string {
	at := h.where(call.Pos())
	ctors := maps.Clone(patchHelperCtors(h.pass, h.files, h.ws))
	if f, ok := h.pass.TypesInfo.Defs[h.ctor.Name].(*types.Func); ok {
		ctors[f] = true
	}
	if other := helperMadeIn(h.calls, ctors, fn, o, call, fn.End()); other.ctor != nil {
		return fmt.Sprintf("%s is made from %s at %s and another patch helper from it at %s, in one function: two patchers of one object, the later Flush would conflict on every reconcile ("+TwoPatchers+")", h.ctor.Name.Name, o.Name(), at, other.text(&h.place))
	}
	found := objectWrite(h.pass, h.files, h.ws, opts, fn, o, call.End(), h.method)
	if found != nil {
		return fmt.Sprintf("its caller writes %s's status itself at %s while the helper made from it at %s is alive: two patchers of one object, the later Flush would conflict on every reconcile ("+TwoPatchers+")", o.Name(), h.where(found.Pos()), at)
	}
	if via, w := calleeWrites(h.calls, h.files, h.ws, fn, o, call.End(), h.method); via != nil {
		return fmt.Sprintf("its caller hands %s to %s at %s, which writes its status at %s, while the helper made from it at %s is alive: two patchers of one object, the later Flush would conflict on every reconcile ("+TwoPatchers+")", o.Name(), types.ExprString(via.Fun), h.where(via.Pos()), h.where(w.Pos()), at)
	}
	return ""
}

// patchHelperCtors are the constructors of the patch helpers whose Patch
// holds one of the status writes ws, computed once per pass (Files.Once)
// for the package's writes. The map is shared: the caller does not change
// it.
func patchHelperCtors(pass *analysis.Pass, files Files, ws []*Write) map[*types.Func]bool {
	o := files.Once
	if o == nil || len(ws) == 0 {
		return findPatchHelperCtors(pass, files, ws)
	}
	if o.ctors == nil || len(o.ws) != len(ws) || &o.ws[0] != &ws[0] {
		o.ws, o.ctors = ws, findPatchHelperCtors(pass, files, ws)
	}
	return o.ctors
}

// findPatchHelperCtors computes patchHelperCtors.
func findPatchHelperCtors(pass *analysis.Pass, files Files, ws []*Write) map[*types.Func]bool {
	out := map[*types.Func]bool{}
	for _, w := range ws {
		call, ok := files.Calls[w.Lparen]
		if !ok || w.Generated || w.Verb != "Patch" || len(call.Args) < 3 {
			continue // a helper's Patch with options too: it stays, and is a writer beside
		}
		if h := patchHelperAt(pass, files, call); h != nil {
			c, _ := statusReceiver(call)
			if h.client = h.recvField(c); h.client == nil {
				continue
			}
			h.findCtor()
			if h.ctor != nil {
				if f, ok := pass.TypesInfo.Defs[h.ctor.Name].(*types.Func); ok {
					out[f] = true
				}
			}
		}
	}
	return out
}

// madeInto is the variable the constructor's call at cur is assigned to
// (v := ctor(...) or var v = ctor(...), with err beside it when the
// constructor returns an error too), or nil.
func (h *patchHelper) madeInto(cur inspector.Cursor) *types.Var {
	callCur := cur.Parent()
	switch p := callCur.Parent().Node().(type) {
	case *ast.AssignStmt:
		// helper := ctor(...), or helper, err := ctor(...) of a
		// constructor that returns an error too.
		if len(p.Lhs) <= 2 && len(p.Rhs) == 1 && p.Rhs[0] == callCur.Node() && p.Tok == token.DEFINE {
			v, _ := h.pass.TypesInfo.Defs[identNode(p.Lhs[0])].(*types.Var)
			return v
		}
	case *ast.ValueSpec:
		if len(p.Names) <= 2 && len(p.Values) == 1 && p.Values[0] == callCur.Node() {
			v, _ := h.pass.TypesInfo.Defs[p.Names[0]].(*types.Var)
			return v
		}
	}
	return nil
}

// identNode is e as an identifier, or nil.
func identNode(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// enclosingFuncOf is the function declaration or literal around cur.
func enclosingFuncOf(cur inspector.Cursor) ast.Node {
	for p := cur.Parent(); p.Node() != nil; p = p.Parent() {
		switch n := p.Node().(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return n
		}
	}
	return nil
}

// readBefore reports whether fn reads o with the client's Get before
// call.
func (h *patchHelper) readBefore(fn ast.Node, o *types.Var, call *ast.CallExpr) bool {
	root, ok := h.cursor(fn)
	if !ok {
		return false
	}
	for c := range root.Preorder((*ast.CallExpr)(nil)) {
		g := c.Node().(*ast.CallExpr)
		if g.End() <= call.Pos() && len(g.Args) == 3 && h.clientWrite(g) == "Get" && identOf(h.pass, g.Args[2]) == o {
			return true
		}
	}
	return false
}

// dispatchesFor reports whether the generated package pkg declares For,
// as dispatches does ForType.
func dispatchesFor(h *patchHelper, pkg string, kind *types.Named) bool {
	if p := importedPkg(h.pass.Pkg, pkg); p != nil {
		return p.Scope().Lookup("For") != nil
	}
	return kind != nil && kind.Obj().Pkg() != nil && kind.Obj().Pkg().Path() != pkg
}
