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

// A status write in a method over an interface of the module that has
// client.Object's methods (issue 80: a status Manager's
// MarkDegraded(ctx, obj Conditioned, cause), called by every reconciler
// with its own kind) is a kindHelper whose method (h.method) cannot take
// a type parameter: it takes the generated package's StatusPatcher in
// place of its object instead, the interface every kind's
// <Kind>StatusPatcher hands out with StatusPatcher() over its own
// patcher (one life), its object p.Object().(Conditioned), its write
// p.Flush(ctx); a merge patch's base the method took itself goes. Each
// caller passes its kind's patcher's StatusPatcher(): the one its own
// writes of the object use, or one made after its Get (the generic
// move's callers, migrategenericedit.go). All callers or none; where it
// stays, the reason names the method's line, the fact and the move by
// hand.

// An ifaceMethod is what a method's move needs beyond a function's.
type ifaceMethod struct {
	h    *kindHelper
	base ast.Stmt // base := obj.DeepCopyObject().(client.Object), the merge patch's: dropped
}

// takesBase reports whether the method's merge patch is of a base it
// takes itself from its object for this write alone, which it records.
func (im *ifaceMethod) takesBase() bool {
	h := im.h
	mf, ok := ast.Unparen(h.call.Args[2]).(*ast.CallExpr)
	if !ok || !h.isMergeFrom(mf) {
		return false
	}
	id, ok := ast.Unparen(mf.Args[0]).(*ast.Ident)
	b, _ := h.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || b == nil || h.uses(b) != 1 {
		return false
	}
	def, val := h.definition(b)
	if ta, ok := ast.Unparen(val).(*ast.TypeAssertExpr); ok {
		val = ta.X // obj.DeepCopyObject().(client.Object)
	}
	call, ok := ast.Unparen(val).(*ast.CallExpr)
	if def == nil || !ok || len(call.Args) != 0 {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "DeepCopyObject" || h.paramIndex(sel.X) != h.obj {
		return false
	}
	for range h.usesOf(h.fd.Body, h.params[h.obj], h.fd.Body.Pos(), def.Pos()) {
		return false // the base is not its first use of obj: the patch sent only what came after it
	}
	im.base = def
	return true
}

// unsent says why a caller's call of a method whose merge patch is
// of its own base would send more than that patch did: the object may
// have changed since its read or last stored write on a path to the call
// (the patcher's Flush sends that too; the patch sent only what the
// method changed). "" when it is fresh at the call on every path.
func (im *ifaceMethod) unsent(kc *kindCaller, v *types.Var) string {
	h := im.h
	if im.base == nil {
		return ""
	}
	l := newLife(kc.site, v)
	var node ast.Node
	if l != nil {
		for _, b := range l.g.Blocks {
			for _, n := range b.Nodes {
				if b.Live && n.Pos() <= kc.call.Pos() && kc.call.End() <= n.End() {
					node = n
				}
			}
		}
	}
	if node == nil || !l.freshAt(node) {
		return fmt.Sprintf("passes %s, which may have changed since its read or last stored status write on a path to the call: %s's merge patch of its own base at %s did not send that, the patcher's Flush would", v.Name(), h.fd.Name.Name, h.where(im.base.Pos()))
	}
	return ""
}

// why says why the method stays although its callers can each give
// a patcher: it is called through an interface (which it would no longer
// implement), or its callers' kinds are of two generated packages (one
// StatusPatcher). An exported method stays too (kindHelperOf): its
// callers in other packages are not changed.
func (im *ifaceMethod) why() string {
	h := im.h
	name := h.fd.Name.Name
	recv := h.fn.Signature().Recv().Type()
	if p, ok := recv.(*types.Pointer); ok {
		recv = p.Elem()
	}
	var at *ast.SelectorExpr
	for id, sel := range h.pass.TypesInfo.Selections {
		if f, ok := sel.Obj().(*types.Func); ok && f.Name() == name && types.IsInterface(sel.Recv()) && (at == nil || id.Pos() < at.Pos()) {
			if it := sel.Recv().Underlying().(*types.Interface); types.Implements(recv, it) || types.Implements(types.NewPointer(recv), it) {
				at = id
			}
		}
	}
	if at != nil {
		return fmt.Sprintf("%s is called through the interface %s at %s, which would no longer be implemented", name, types.TypeString(h.pass.TypesInfo.Selections[at].Recv(), types.RelativeTo(h.pass.Pkg)), h.where(at.Pos()))
	}
	if iface := (&helperMove{migration: &migration{site: *h.site}}).satisfiedThrough(h.fn); iface != "" {
		return fmt.Sprintf("its type satisfies %s, which has %s: calls through it are not seen, and it would no longer satisfy it", iface, name)
	}
	for _, kc := range h.callers {
		if kc.patcher.Pkg != h.callers[0].patcher.Pkg {
			return fmt.Sprintf("its callers pass kinds of two generated packages, %s and %s, whose StatusPatcher interfaces differ", h.callers[0].patcher.Pkg, kc.patcher.Pkg)
		}
	}
	return ""
}

// client is the client a caller makes its patcher with: the one
// the method writes through, m.Client on the call's receiver: the field
// of the literal the receiver is (Manager{Client: r.Client}, or a local
// declared as one, sm := &Manager{...}), or the receiver's field itself
// when the receiver is a parameter of the caller (sm.Client); either
// rooted at a parameter or the receiver of the caller's function, so it
// is there at the read the patcher is made after.
func (im *ifaceMethod) client(kc *kindCaller) string {
	h := im.h
	wc := ast.Unparen(h.call.Fun.(*ast.SelectorExpr).X.(*ast.CallExpr).Fun.(*ast.SelectorExpr).X)
	recv := h.fd.Recv.List[0].Names
	sel, _ := ast.Unparen(wc).(*ast.SelectorExpr)
	var field *ast.Ident
	if sel != nil && len(recv) == 1 {
		if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && h.pass.TypesInfo.Uses[id] == h.pass.TypesInfo.Defs[recv[0]] {
			field = sel.Sel
		}
	}
	if field == nil {
		return "writes through " + types.ExprString(wc) + ", not a field of its receiver " + recvName(h.fd) + ", which a caller's patcher would be made with"
	}
	r := ast.Unparen(kc.call.Fun.(*ast.SelectorExpr).X)
	if id, ok := r.(*ast.Ident); ok {
		if v, _ := h.pass.TypesInfo.Uses[id].(*types.Var); v != nil && !kc.paramOrRecv(v) {
			if _, val := kc.definition(v); val != nil {
				r = ast.Unparen(val)
			}
		}
	}
	if u, ok := r.(*ast.UnaryExpr); ok && u.Op == token.AND {
		r = ast.Unparen(u.X)
	}
	var c ast.Expr
	switch r := r.(type) {
	case *ast.CompositeLit:
		for _, e := range r.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				if k, ok := kv.Key.(*ast.Ident); ok && k.Name == field.Name {
					c = kv.Value
				}
			}
		}
	case *ast.Ident:
		if v, _ := h.pass.TypesInfo.Uses[r].(*types.Var); v != nil && kc.paramOrRecv(v) {
			kc.client, kc.clientExpr = r.Name+"."+field.Name, wc
			return ""
		}
	}
	if c == nil || !isPlainSelector(c) || !kc.rootedAtParam(c) {
		return "passes its receiver " + types.ExprString(kc.call.Fun.(*ast.SelectorExpr).X) + ", whose " + field.Name + " (the client " + h.fd.Name.Name + " writes through) is not seen at the read: not a field of a parameter or the receiver of " + kc.funcText() + ", nor one set from them in a literal"
	}
	kc.client, kc.clientExpr = kc.text().source(c), c
	return ""
}

// paramOrRecv reports whether v is a parameter or the receiver of the
// caller's function.
func (kc *kindCaller) paramOrRecv(v *types.Var) bool {
	fd, _ := kc.enclosingFunc().(*ast.FuncDecl)
	if fd == nil {
		return false
	}
	if fd.Recv != nil {
		for _, n := range fd.Recv.List[0].Names {
			if kc.pass.TypesInfo.Defs[n] == v {
				return true
			}
		}
	}
	return slices.Contains(paramVars(kc.pass, fd), v)
}

// rootedAtParam reports whether e, a plain selector, starts at a
// parameter or the receiver of the caller's function.
func (kc *kindCaller) rootedAtParam(e ast.Expr) bool {
	for sel, ok := ast.Unparen(e).(*ast.SelectorExpr); ok; sel, ok = ast.Unparen(e).(*ast.SelectorExpr) {
		e = sel.X
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	v, _ := kc.pass.TypesInfo.Uses[id].(*types.Var)
	return ok && v != nil && kc.paramOrRecv(v)
}

// qualifier is how the method's file names the generated package
// its callers' patchers are of, and the import that adds it.
func (im *ifaceMethod) qualifier() (string, *analysis.TextEdit, string) {
	h := im.h
	return h.text().qualifier(h.callers[0].patcher.Pkg)
}

// edits make the method take the StatusPatcher: its parameter, its
// object the patcher's, its base dropped, its write Flush.
func (im *ifaceMethod) edits(qual string) []analysis.TextEdit {
	h := im.h
	var edits []analysis.TextEdit
	var params []string
	for i, f := range h.fieldTypes() {
		switch {
		case i == h.obj:
			params = append(params, h.name+" "+qual+"StatusPatcher")
		case i != h.client:
			params = append(params, h.params[i].Name()+" "+h.text().source(f))
		}
	}
	edits = append(edits, analysis.TextEdit{Pos: h.fd.Type.Params.Opening + 1, End: h.fd.Type.Params.Closing, NewText: []byte(strings.Join(params, ", "))})
	obj := h.params[h.obj]
	uses := h.uses(obj)
	if im.base != nil {
		uses--
		edits = append(edits, h.text().deleteStmt(im.base))
	}
	if uses > 1 {
		decl := fmt.Sprintf("%s := %s.Object().(%s)", obj.Name(), h.name, h.objectText)
		edits = append(edits, analysis.TextEdit{Pos: h.fd.Body.Lbrace + 1, End: h.fd.Body.Lbrace + 1, NewText: []byte("\n\t" + decl)})
	}
	return append(edits, analysis.TextEdit{Pos: h.call.Pos(), End: h.call.End(), NewText: []byte(fmt.Sprintf("%s.Flush(%s)", h.name, h.text().source(h.call.Args[0])))})
}

// message says what the method's move did.
func (im *ifaceMethod) message(qual string, shared int) string {
	h := im.h
	msg := fmt.Sprintf("move the status write onto the generated patchers (%s takes the %sStatusPatcher its %d caller(s) pass, their kind's patcher's StatusPatcher(), then Flush", h.fd.Name.Name, qual, len(h.callers))
	if shared > 0 {
		msg += fmt.Sprintf("; %d call(s) pass the patcher their function makes for its own writes of the object", shared)
	}
	return msg + ")"
}

// advice is the reason the method stays: why, and the move by hand.
func (im *ifaceMethod) advice(why string) string {
	h := im.h
	obj := h.params[h.obj]
	iface := types.TypeString(obj.Type(), types.RelativeTo(h.pass.Pkg))
	return fmt.Sprintf("%s is a method of %s (%s) over %s, and %s; %s", h.fd.Name.Name, recvName(h.fd), h.where(h.fd.Name.Pos()), iface, why, methodByHand(h.pass, h.opts, obj.Name(), iface))
}

// methodByHand is the move of a method over iface by hand.
func methodByHand(pass *analysis.Pass, opts Options, obj, iface string) string {
	pkg := patchersName(pass, opts)
	return fmt.Sprintf("by hand: have it take p %s.StatusPatcher in place of %s (%s := p.Object().(%s) where it needs the interface) and call p.Flush(ctx) in place of this write, "+
		"each caller passing its kind's patcher's StatusPatcher(), or %s.For(c, obj)", pkg, obj, obj, iface, pkg)
}

// ifaceMethodWhy says why w, a merge patch or an Update of a parameter of
// a method whose type is an interface of the module, stays when its
// shape is not one kindHelperOf moves; "" when w is not one (or an
// audit, which names no shape -fix does not move).
func ifaceMethodWhy(pass *analysis.Pass, files Files, opts Options, w *Write) string {
	call, ok := files.Calls[w.Lparen]
	if !ok || w.Generated || opts.Audit || opts.PatcherOf == nil || (w.Verb != "Patch" && w.Verb != "Update") || len(call.Args) < 2 {
		return ""
	}
	h := &kindHelper{site: &site{place: place{calls: calls{pass: pass, insp: files.Inspector}, call: call}}, client: -1, base: -1}
	cur, ok := h.cursor(call)
	if !ok {
		return ""
	}
	h.path = pathOf(cur)
	h.file = h.path[len(h.path)-1].(*ast.File)
	fd, _ := h.enclosingFunc().(*ast.FuncDecl)
	if fd == nil || fd.Recv == nil {
		return ""
	}
	for v := range paramFields(pass, fd) {
		h.params = append(h.params, v) // nil for an unnamed one, which no argument names
	}
	if h.obj = h.paramIndex(call.Args[1]); h.obj < 0 || !h.anyKind(h.params[h.obj].Type()) || !h.iface {
		return ""
	}
	obj := h.params[h.obj]
	iface := types.TypeString(obj.Type(), types.RelativeTo(pass.Pkg))
	fact := "its write is not an Update, nor a merge patch of a base it takes from " + obj.Name() + " itself for this write alone, or a parameter is unnamed"
	return fmt.Sprintf("%s is a method of %s (%s) over %s, and %s; %s", fd.Name.Name, recvName(fd), h.where(fd.Name.Pos()), iface, fact, methodByHand(pass, opts, obj.Name(), iface))
}

// recvName is the name of fd's receiver type, without its pointer.
func recvName(fd *ast.FuncDecl) string {
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if x, ok := t.(*ast.IndexExpr); ok {
		t = x.X
	}
	if x, ok := t.(*ast.IndexListExpr); ok {
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return "its receiver"
}

// patchersName is the name of the package of the generated patchers of a
// kind the package sees (its own types and its module's packages it
// imports), "patchers" (the package statuspatch-gen init makes) when it
// sees none.
func patchersName(pass *analysis.Pass, opts Options) string {
	mod := ""
	if pass.Module != nil {
		mod = pass.Module.Path
	}
	seen := map[*types.Package]bool{}
	var visit func(*types.Package) string
	visit = func(p *types.Package) string {
		if seen[p] || p != pass.Pkg && (mod == "" || p.Path() != mod && !strings.HasPrefix(p.Path(), mod+"/")) {
			return ""
		}
		seen[p] = true
		for _, name := range p.Scope().Names() {
			if tn, ok := p.Scope().Lookup(name).(*types.TypeName); ok && !tn.IsAlias() {
				if pt := opts.PatcherOf(types.NewPointer(tn.Type())); pt != nil && pt.Pkg != "" {
					return pt.Pkg[strings.LastIndex(pt.Pkg, "/")+1:]
				}
			}
		}
		for _, imp := range p.Imports() {
			if n := visit(imp); n != "" {
				return n
			}
		}
		return ""
	}
	if n := visit(pass.Pkg); n != "" {
		return n
	}
	return "patchers"
}
