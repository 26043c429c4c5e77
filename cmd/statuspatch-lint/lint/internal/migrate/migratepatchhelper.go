package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// A patchHelper is cluster-api's patch helper written in the module: a
// value made from the object after its Get, holding a copy of it as the
// base, whose Patch method writes the status changes since then:
//
//	type patchHelper struct {
//		c    client.Client
//		base client.Object
//	}
//
//	func newPatchHelper(obj client.Object, c client.Client) *patchHelper {
//		return &patchHelper{c: c, base: obj.DeepCopyObject().(client.Object)}
//	}
//
//	func (h *patchHelper) Patch(ctx context.Context, obj client.Object) error {
//		return h.c.Status().Patch(ctx, obj, client.MergeFrom(h.base))
//	}
//
// called as helper := newPatchHelper(cluster, r.Client) after the Get of
// cluster and defer func() { ... helper.Patch(ctx, cluster) ... }().
// The helper's body is rewritten to hold the StatusPatcher that
// patchers.For makes in place of the base (and For's error, which Patch
// returns), and its write becomes Flush; no caller changes. The patcher
// is made with patcher.WithNonStatusChangesUnsent(): what a caller
// changes outside the status before Patch is not followed, and the
// status write left it unsent, as the patcher then does. It moves when
// the base is only the write's, Patch writes nothing else, and every
// caller passes a generated kind it read by Get to the constructor and
// the same object to Patch (checkCallers, migratepatchhelpercall.go).
type patchHelper struct {
	*site
	method   *ast.FuncDecl // Patch, holding the write
	recv     *types.Var    // its receiver
	named    *types.Named  // the helper's type
	obj      *types.Var    // Patch's object parameter
	base     *types.Var    // the base field
	client   *types.Var    // the client field
	ctor     *ast.FuncDecl // the constructor, holding the one literal of the type
	ctorObj  int           // the index of the constructor's object parameter
	lit      *ast.CompositeLit
	baseKV   *ast.KeyValueExpr
	clientKV *ast.KeyValueExpr
	litStmt  ast.Stmt // the constructor's statement holding the literal
	dropC    bool     // the client field is the write's only: dropped
	pkg      string   // the callers' kinds' patchers' package, declaring For
	ws       []*Write // the package's status writes (others made beside it)
	files    Files
}

// recognisePatchHelper recognises the write of a patch helper's Patch.
func recognisePatchHelper(r *recognition) (*patchHelper, string, bool) {
	call, ok := r.files.Calls[r.w.Lparen]
	if !ok || r.w.Generated || r.opts.PatcherOf == nil || r.w.Verb != "Patch" || len(call.Args) < 3 {
		return nil, "", false
	}
	h := patchHelperAt(r.pass, r.files, call)
	if h == nil {
		return nil, "", false
	}
	h.ws, h.files = r.ws, r.files
	why := h.check(r.opts)
	if why == "" && len(call.Args) > 3 {
		// Its write's options (a field owner): after the checks, whose
		// reasons (another writer beside it) say more.
		why = fmt.Sprintf("%s.%s's status patch has the option %s: -fix moves a patch helper whose write passes only client.MergeFrom(%s) (by hand: give patchers.For the option, a field owner as patcher.WithFieldOwner)", h.named.Obj().Name(), h.method.Name.Name, types.ExprString(call.Args[3]), types.ExprString(ast.Unparen(call.Args[2]).(*ast.CallExpr).Args[0]))
	}
	if why == "" {
		return h, "", true
	}
	if !strings.Contains(why, TwoPatchers) {
		// Kept for a reason of its own: no lock either when its base is
		// taken before another write of its object (migratepatchhelperlock.go).
		if moved := helperBaseMoved(h); moved != "" {
			why += "; and " + moved + " (" + TwoPatchers + ")"
		}
	}
	// An audit names no shape -fix does not move (as kindHelperOf).
	return nil, why, !r.opts.Audit
}

// patchHelperAt is the patch helper whose Patch holds the status write
// call (match), or nil.
func patchHelperAt(pass *analysis.Pass, files Files, call *ast.CallExpr) *patchHelper {
	h := &patchHelper{site: &site{place: place{calls: calls{pass: pass, insp: files.Inspector}, call: call}}}
	cur, ok := h.cursor(call)
	if !ok {
		return nil
	}
	h.path = pathOf(cur)
	h.file = h.path[len(h.path)-1].(*ast.File)
	if !h.match() {
		return nil
	}
	return h
}

// match reports whether the write is c.Status().Patch(ctx, obj,
// client.MergeFrom(h.base)) in a method of h, obj a client.Object
// parameter and base a field of h's type.
func (h *patchHelper) match() bool {
	h.method, _ = h.enclosingFunc().(*ast.FuncDecl)
	if h.method == nil || h.method.Recv == nil || len(h.method.Recv.List) != 1 || len(h.method.Recv.List[0].Names) != 1 {
		return false
	}
	h.recv, _ = h.pass.TypesInfo.Defs[h.method.Recv.List[0].Names[0]].(*types.Var)
	if h.recv == nil {
		return false
	}
	h.named = kube.NamedOf(h.recv.Type())
	if h.named == nil || h.named.Obj().Pkg() != h.pass.Pkg {
		return false
	}
	h.obj = identOf(h.pass, h.call.Args[1])
	if h.obj == nil || h.paramOf(h.obj) != h.method.Name.Name || !h.isObjectType(h.obj.Type()) {
		return false
	}
	mf, _ := ast.Unparen(h.call.Args[2]).(*ast.CallExpr)
	if mf == nil || !h.isMergeFrom(mf) {
		return false
	}
	h.base = h.recvField(mf.Args[0])
	return h.base != nil
}

// isObjectType reports whether t is client.Object.
func (h *patchHelper) isObjectType(t types.Type) bool {
	pkg := importedPkg(h.pass.Pkg, kube.ClientPkgPath)
	if pkg == nil {
		return false
	}
	tn, ok := pkg.Scope().Lookup("Object").(*types.TypeName)
	return ok && types.Identical(t, tn.Type())
}

// recvField is the field of the helper's type e selects from the
// receiver (h.base), or nil.
func (h *patchHelper) recvField(e ast.Expr) *types.Var {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok || identOf(h.pass, sel.X) != h.recv {
		return nil
	}
	s := h.pass.TypesInfo.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal || len(s.Index()) != 1 {
		return nil
	}
	v, _ := s.Obj().(*types.Var)
	return v
}

// check says why the helper stays, naming the line; on success it
// returns "" with h complete.
func (h *patchHelper) check(opts Options) string {
	name := h.named.Obj().Name()
	c, _ := statusReceiver(h.call)
	if h.client = h.recvField(c); h.client == nil {
		return fmt.Sprintf("its client %s is not a field of %s, which the patcher could be made with", types.ExprString(c), name)
	}
	res := h.method.Type.Results
	if res == nil || res.NumFields() != 1 || !types.Identical(h.pass.TypesInfo.TypeOf(res.List[0].Type), types.Universe.Lookup("error").Type()) {
		return fmt.Sprintf("%s returns more than an error: patchers.For's error, which it would return, has no result of its own", funcName(h.methodFunc(), h.pass.Pkg))
	}
	if h.named.Obj().Exported() {
		return fmt.Sprintf("%s is exported, and its uses in other packages are not seen: make each caller's patcher with patchers.For (or New<Kind>StatusPatcher) after its Get and call its Flush(ctx) in place of %s", name, h.method.Name.Name)
	}
	if why := h.findCtor(); why != "" {
		return why
	}
	if why := h.checkPatch(); why != "" {
		return why
	}
	if why := h.testsMayCall(h.ctor.Name.Name, opts); why != "" {
		return why
	}
	if !opts.NonStatusUnsent {
		// The callers' changes between the helper and Patch are not
		// followed: the status write left those outside the status unsent.
		return fmt.Sprintf("-nonstatus-unsent=false, and what %s's callers change outside the status before %s is not followed: the patcher would refuse what the status write left unsent", h.ctor.Name.Name, h.method.Name.Name)
	}
	return h.checkCallers(opts)
}

func (h *patchHelper) methodFunc() *types.Func {
	fn, _ := h.pass.TypesInfo.Defs[h.method.Name].(*types.Func)
	return fn
}

// usesIn is the cursor of each use of v in the package.
func usesIn(c calls, v types.Object) []inspector.Cursor {
	var out []inspector.Cursor
	for cur := range c.insp.Root().Preorder((*ast.Ident)(nil)) {
		if c.pass.TypesInfo.Uses[cur.Node().(*ast.Ident)] == v {
			out = append(out, cur)
		}
	}
	return out
}

// findCtor finds the one literal of the helper's type, setting the base
// (a copy of the constructor's object parameter) and the client, and the
// constructor holding it; the base field is used by it and the write
// only.
func (h *patchHelper) findCtor() string {
	name := h.named.Obj().Name()
	for cur := range h.insp.Root().Preorder((*ast.CompositeLit)(nil)) {
		lit := cur.Node().(*ast.CompositeLit)
		if kube.NamedOf(h.pass.TypesInfo.TypeOf(lit)) != h.named {
			continue
		}
		if h.lit != nil {
			return fmt.Sprintf("%s is made at %s and at %s: -fix moves a helper made by one constructor", name, h.where(h.lit.Pos()), h.where(lit.Pos()))
		}
		h.lit = lit
		for p := cur.Parent(); p.Node() != nil; p = p.Parent() {
			if s, ok := p.Node().(ast.Stmt); ok && h.litStmt == nil {
				h.litStmt = s
			}
			if fd, ok := p.Node().(*ast.FuncDecl); ok {
				h.ctor = fd
				break
			}
			if _, ok := p.Node().(*ast.FuncLit); ok {
				break
			}
		}
	}
	if h.lit == nil || h.ctor == nil || h.ctor.Recv != nil || h.litStmt == nil {
		return fmt.Sprintf("%s is not made by a composite literal in a function of the package", name)
	}
	if h.ctor.Name.IsExported() {
		return fmt.Sprintf("%s is exported, and its callers in other packages are not seen: make each caller's patcher with patchers.For after its Get and call its Flush(ctx) in place of %s", h.ctor.Name.Name, h.method.Name.Name)
	}
	for _, e := range h.lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			return fmt.Sprintf("%s's literal at %s has no field names", name, h.where(h.lit.Pos()))
		}
		switch h.pass.TypesInfo.Uses[kv.Key.(*ast.Ident)] {
		case h.base:
			h.baseKV = kv
		case h.client:
			h.clientKV = kv
		}
	}
	if h.baseKV == nil || h.clientKV == nil {
		return fmt.Sprintf("%s's literal at %s does not set both %s and %s", name, h.where(h.lit.Pos()), h.base.Name(), h.client.Name())
	}
	if !h.copyOfParam(h.baseKV.Value) {
		return fmt.Sprintf("the base %s is set to %s at %s, not a copy of a parameter of %s (obj.DeepCopyObject())", h.base.Name(), types.ExprString(h.baseKV.Value), h.where(h.baseKV.Pos()), h.ctor.Name.Name)
	}
	if id := identOf(h.pass, h.clientKV.Value); id == nil || id.Parent() != h.ctorScope() {
		return fmt.Sprintf("the client %s is set to %s at %s, not a parameter of %s, which patchers.For would be given", h.client.Name(), types.ExprString(h.clientKV.Value), h.where(h.clientKV.Pos()), h.ctor.Name.Name)
	}
	for _, u := range usesIn(h.calls, h.base) {
		if n := u.Node(); n != h.baseKV.Key && !within(n, h.call) {
			return fmt.Sprintf("%s's base field %s is used at %s besides the write: the patcher that would replace the copy is no base to read", name, h.base.Name(), h.where(n.Pos()))
		}
	}
	h.dropC = true
	for _, u := range usesIn(h.calls, h.client) {
		if n := u.Node(); n != h.clientKV.Key && !within(n, h.call) {
			h.dropC = false
		}
	}
	return ""
}

// ctorScope is the scope of the constructor's parameters.
func (h *patchHelper) ctorScope() *types.Scope {
	return h.pass.TypesInfo.Scopes[h.ctor.Type]
}

// copyOfParam reports whether e is p.DeepCopyObject() of a parameter p
// of the constructor, asserted to any type, and sets ctorObj.
func (h *patchHelper) copyOfParam(e ast.Expr) bool {
	if ta, ok := ast.Unparen(e).(*ast.TypeAssertExpr); ok {
		e = ta.X
	}
	dc, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(dc.Args) != 0 {
		return false
	}
	sel, ok := ast.Unparen(dc.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "DeepCopyObject" {
		return false
	}
	p := identOf(h.pass, sel.X)
	if p == nil || !h.isObjectType(p.Type()) {
		return false
	}
	h.ctorObj = -1
	for i, v := range paramVars(h.pass, h.ctor) {
		if v == p {
			h.ctorObj = i
		}
	}
	return h.ctorObj >= 0
}

// checkPatch says why Patch writes more than the status since the base,
// naming the line: another use of the client, the object assigned.
func (h *patchHelper) checkPatch() string {
	for _, u := range usesIn(h.calls, h.client) {
		if n := u.Node(); within(n, h.method) && !within(n, h.call) {
			return fmt.Sprintf("%s also uses %s.%s at %s: the patcher writes the status only, and %s may write more (its spec or metadata)", funcName(h.methodFunc(), h.pass.Pkg), h.recv.Name(), h.client.Name(), h.where(n.Pos()), h.method.Name.Name)
		}
	}
	for _, u := range usesIn(h.calls, h.obj) {
		if as, ok := u.Parent().Node().(*ast.AssignStmt); ok && isLHS(as, u.Node()) {
			return fmt.Sprintf("%s is assigned at %s: the patcher writes the object it was made with", h.obj.Name(), h.where(as.Pos()))
		}
	}
	return ""
}

// within reports whether n is inside outer.
func within(n, outer ast.Node) bool {
	return n.Pos() >= outer.Pos() && n.End() <= outer.End()
}
