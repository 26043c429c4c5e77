package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// The callers of a kindHelper and the text of its move
// (migrategeneric.go).

// caller is the call's plan: its object's kind's patcher, made where the
// base is taken (Patch) or after the Get that read the object (Update).
func (h *kindHelper) caller(cur inspector.Cursor, call *ast.CallExpr) (*kindCaller, string) {
	kc := &kindCaller{site: &site{place: place{calls: h.calls, call: call}}}
	kc.path = pathOf(cur)
	kc.file = kc.path[len(kc.path)-1].(*ast.File)
	id, ok := ast.Unparen(call.Args[h.obj]).(*ast.Ident)
	v, _ := h.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v == nil {
		return nil, "passes " + types.ExprString(call.Args[h.obj]) + " as the object, not a variable"
	}
	if _, ptr := v.Type().(*types.Pointer); !ptr {
		return nil, "passes " + v.Name() + ", not a pointer to a kind"
	}
	p := h.patcherOf(v.Type())
	h.anyPatched = h.anyPatched || p != nil
	if p == nil {
		return nil, "passes " + v.Name() + ", whose kind has no generated patcher"
	}
	kc.patcher, kc.obj = *p, v.Name()
	sel, _ := ast.Unparen(h.call.Fun).(*ast.SelectorExpr)
	st, _ := ast.Unparen(sel.X).(*ast.CallExpr)
	ci := h.paramIndex(st.Fun.(*ast.SelectorExpr).X)
	if ci < 0 && h.method != nil {
		if why := h.method.client(kc); why != "" {
			return nil, why
		}
	} else if ci < 0 {
		return nil, "" // unreachable: kindHelperOf checked the receiver
	} else {
		kc.client, kc.clientExpr = kc.text().source(call.Args[ci]), call.Args[ci]
	}
	if !kc.isClient(kc.clientExpr) {
		if !embedsClient(&kc.calls, h.pass.TypesInfo.TypeOf(kc.clientExpr)) {
			return nil, "passes " + kc.client + ", not a client.Client to make the patcher with"
		}
		kc.client += ".Client"
	}
	if h.base >= 0 {
		bid, ok := ast.Unparen(call.Args[h.base]).(*ast.Ident)
		b, _ := h.pass.TypesInfo.Uses[bid].(*types.Var)
		def, val := kc.definition(b)
		m := &migration{site: *kc.site, obj: v}
		if !ok || def == nil || !m.reads().isDeepCopyOfObj(val) || kc.uses(b) != 1 {
			return nil, "passes a base that is not " + v.Name() + ".DeepCopy() taken for this call alone"
		}
		kc.base = def
	} else {
		m := &migration{site: *kc.site, obj: v}
		if m.reads().findGet(); m.anchor == nil {
			return nil, "passes " + v.Name() + ", not read with Get before it in " + kc.funcText()
		}
		kc.before, kc.get, kc.getCheck = m.anchor, m.get, m.getCheck
	}
	if why := planCall(h, kc, v); why != "" {
		return nil, why
	}
	if h.method != nil {
		if why := h.method.unsent(kc, v); why != "" {
			return nil, why
		}
	}
	// Not a name taken in the function, another caller's there, or the
	// one the move of the function's own write of v takes.
	fn := kc.enclosingFunc()
	if h.named == nil {
		h.named = map[ast.Node][]string{}
	}
	kc.name = v.Name() + "Patcher"
	for i := 2; kc.shared == "" && (kc.text().nameTaken(kc.name) || slices.Contains(h.named[fn], kc.name) || i == 2 && h.otherWrite(kc, v) != nil); i++ {
		kc.name = fmt.Sprintf("%sPatcher%d", v.Name(), i)
	}
	if kc.shared != "" {
		kc.name = kc.shared
	}
	h.named[fn] = append(h.named[fn], kc.name)
	return kc, ""
}

// otherWrite is a status write of v in the caller's function, its own
// (not the helper's), or nil: its move names a patcher obj+"Patcher" too.
func (h *kindHelper) otherWrite(kc *kindCaller, v *types.Var) *ast.CallExpr {
	fn := kc.enclosingFunc()
	for _, w := range h.writes {
		if w.Pos() >= fn.Pos() && w.End() <= fn.End() && len(w.Args) > 1 {
			if id, ok := ast.Unparen(w.Args[1]).(*ast.Ident); ok && h.pass.TypesInfo.Uses[id] == v {
				return w
			}
		}
	}
	return nil
}

// alongside says why the call's patcher, made at its anchor, would not
// write what the call wrote: a status write of v of the caller's own
// after that anchor (its patcher and this one alive at once, the second
// Flush a Conflict), or a use between the anchor and the call the
// patcher would not send as the handwritten write did (a change of
// more than the status, Flush refusing it with ErrNonStatusChange;
// another write of v, as checkMutations finds after a direct write's
// anchor). shared: the call passes the patcher of the caller's own
// writes, whose writes are then not another patcher's.
func (h *kindHelper) alongside(kc *kindCaller, v *types.Var, shared bool) string {
	anchor := kc.base
	if anchor == nil {
		anchor = kc.before
	}
	fn := kc.enclosingFunc()
	from := anchor.End() // the uses checked: after it, up to the call
	for _, w := range h.writes {
		if shared {
			// One patcher, the function's writes' (migrategenericlife.go):
			// what its last write before the call sent is not the call's.
			if w.Pos() >= anchor.End() && w.End() <= kc.call.Pos() && len(w.Args) > 1 && kc.isObjArg(w.Args[1], v) {
				from = max(from, w.End())
			}
			continue
		}
		if w.Pos() >= fn.Pos() && w.End() <= fn.End() && w.End() > anchor.Pos() && len(w.Args) > 1 {
			if id, ok := ast.Unparen(w.Args[1]).(*ast.Ident); ok && h.pass.TypesInfo.Uses[id] == v {
				return fmt.Sprintf("writes %s's status itself at %s, after %s: that write's patcher and the one made for this call would be alive at once, and the second Flush would conflict ("+TwoPatchers+")", v.Name(), kc.where(w.Pos()), kc.where(anchor.Pos()))
			}
		}
	}
	for c := range kc.usesOf(fn, h.fn, anchor.End(), kc.call.Pos()) {
		if call, ok := c.Parent().Node().(*ast.CallExpr); ok && call.Fun == c.Node() && len(call.Args) == len(h.params) {
			if id, ok := ast.Unparen(call.Args[h.obj]).(*ast.Ident); ok && h.pass.TypesInfo.Uses[id] == v {
				return fmt.Sprintf("calls %s with %s at %s too, after %s: the two calls' patchers would be alive at once, and the second Flush would conflict (take the second base after the first call)", h.fd.Name.Name, v.Name(), kc.where(call.Pos()), kc.where(anchor.Pos()))
			}
		}
	}
	m := &migration{site: *kc.site, obj: v, anchor: anchor}
	reread := ""
	m.stmtLists(func(_ ast.Node, list []ast.Stmt) bool {
		for _, s := range list {
			if s.Pos() >= anchor.End() && s.End() <= kc.call.Pos() && m.reads().isGetStmt(s) {
				reread = fmt.Sprintf("reads %s again with Get at %s, after %s: the patcher's base would be the object before that read (take the base after it)", v.Name(), kc.where(s.Pos()), kc.where(anchor.Pos()))
				return false
			}
		}
		return true
	})
	if reread != "" {
		return reread
	}
	if why := m.checks().checkUses(fn, v, from, kc.call.Pos(), 0); why != "" {
		return "passes " + v.Name() + ", and " + why
	}
	return ""
}

// fix is the helper's move: its signature, its object and write, each
// caller's patcher and arguments.
func (h *kindHelper) fix(_ Patcher, _ Files, _ []*Write, opts Options) (*analysis.SuggestedFix, string) {
	pqual, pimport, why := h.text().qualifier(kube.PatcherPkgPath)
	if h.method != nil {
		pqual, pimport, why = h.method.qualifier()
	}
	if why != "" {
		return nil, why
	}
	objName := h.params[h.obj].Name()
	h.name = objName + "Patcher"
	for i := 2; h.text().nameTaken(h.name); i++ {
		h.name = fmt.Sprintf("%sPatcher%d", objName, i)
	}
	var edits []analysis.TextEdit
	if h.newT && h.method == nil {
		h.tparam = "T"
		for i := 2; h.text().nameTaken(h.tparam); i++ {
			h.tparam = fmt.Sprintf("T%d", i)
		}
	}
	retried := 0
	for _, kc := range h.callers {
		if kc.retry != nil {
			retried++
		}
	}
	if h.method != nil {
		edits = append(edits, h.method.edits(pqual)...)
		if pimport != nil {
			edits = append(edits, *pimport)
		}
	} else if retried == len(h.callers) && !h.exported {
		// Every call is its patcher's Retry: the helper, called no more, goes.
		edits = append(edits, h.removeEdits()...)
	} else {
		edits = append(edits, h.signatureEdits(pqual)...)
		if pimport != nil {
			edits = append(edits, *pimport)
		}
	}
	imported := map[*ast.File]bool{}
	shared := 0
	for _, kc := range h.callers {
		if kc.shared != "" {
			shared++
		} else {
			qual, imp, why := kc.text().qualifier(kc.patcher.Pkg)
			if why != "" {
				return nil, why
			}
			if imp != nil && !imported[kc.file] {
				imported[kc.file] = true
				edits = append(edits, *imp)
			}
			ctor := fmt.Sprintf("%s := %sNew%s(%s, %s)", kc.name, qual, kc.patcher.Type, kc.client, kc.obj)
			switch {
			case kc.made != nil:
				edits = append(edits, analysis.TextEdit{Pos: kc.made.End(), End: kc.made.End(), NewText: []byte("\n" + kc.text().indent(kc.made.Pos()) + ctor)})
			case kc.base != nil:
				edits = append(edits, analysis.TextEdit{Pos: kc.base.Pos(), End: kc.base.End(), NewText: []byte(ctor)})
			default:
				edits = append(edits, analysis.TextEdit{Pos: kc.before.End(), End: kc.before.End(), NewText: []byte("\n" + kc.text().indent(kc.before.Pos()) + ctor)})
			}
		}
		if kc.retry != nil {
			edits = append(edits, callEdits(kc)...)
			continue
		}
		if kc.late != nil {
			edits = append(edits, kc.text().deleteStmt(kc.late))
		}
		var args []string
		for i, a := range kc.call.Args {
			switch {
			case i == h.obj && h.method != nil:
				args = append(args, kc.name+".StatusPatcher()")
			case i == h.obj:
				args = append(args, kc.name+".Patcher()")
			case i != h.base && i != h.client:
				args = append(args, kc.text().source(a))
			}
		}
		edits = append(edits, analysis.TextEdit{Pos: kc.call.Lparen + 1, End: kc.call.Rparen, NewText: []byte(strings.Join(args, ", "))})
	}
	if h.exported {
		h.exportGroup(opts) // its callers in other packages: the driver's (migrategenericexported.go)
		msg := fmt.Sprintf("move the status write onto the generated patchers (%s takes the *patcher.Patcher[%s] its callers in other packages pass, their kind's patcher's Patcher(), then Flush", h.fd.Name.Name, h.tparam)
		if h.client >= 0 {
			msg += "; its parameter " + h.params[h.client].Name() + ", then unused, goes"
		}
		return &analysis.SuggestedFix{Message: msg + ")", TextEdits: edits}, ""
	}
	if h.method != nil {
		return &analysis.SuggestedFix{Message: h.method.message(pqual, shared), TextEdits: edits}, ""
	}
	return &analysis.SuggestedFix{Message: h.fixMessage(retried, shared), TextEdits: edits}, ""
}

// fixMessage says what the helper's move did with its callers.
func (h *kindHelper) fixMessage(retried, shared int) string {
	name := h.fd.Name.Name
	var parts []string
	if flushed := len(h.callers) - retried; flushed > 0 {
		parts = append(parts, fmt.Sprintf("%s takes the *patcher.Patcher[%s] its %d caller(s) make with their kind's New<Kind>StatusPatcher, then Flush", name, h.tparam, flushed))
	}
	if shared > 0 {
		parts = append(parts, fmt.Sprintf("%d call(s) pass the patcher their function makes for its own writes of the object", shared))
	}
	if retried > 0 {
		parts = append(parts, fmt.Sprintf("%d call(s) made their patcher's Retry, the decision in Retry", retried))
	}
	if retried == len(h.callers) {
		parts = append(parts, name+", no longer called, removed")
	}
	return "move the status write onto the generated patchers (" + strings.Join(parts, "; ") + ")"
}

// signatureEdits make the helper take the generic patcher: its
// parameters, its object the patcher's, its write Flush.
func (h *kindHelper) signatureEdits(pqual string) []analysis.TextEdit {
	var edits []analysis.TextEdit
	if h.newT {
		edits = append(edits, analysis.TextEdit{Pos: h.fd.Name.End(), End: h.fd.Name.End(), NewText: []byte("[" + h.tparam + " " + h.objectText + "]")})
	}
	var params []string
	for i, f := range h.fieldTypes() {
		switch {
		case i == h.obj:
			params = append(params, fmt.Sprintf("%s *%sPatcher[%s]", h.name, pqual, h.tparam))
		case i != h.base && i != h.client:
			params = append(params, h.params[i].Name()+" "+h.text().source(f))
		}
	}
	edits = append(edits, analysis.TextEdit{Pos: h.fd.Type.Params.Opening + 1, End: h.fd.Type.Params.Closing, NewText: []byte(strings.Join(params, ", "))})
	if h.objUsed {
		objName := h.params[h.obj].Name()
		decl := fmt.Sprintf("%s := %s.Object()", objName, h.name)
		if h.newT {
			decl = fmt.Sprintf("var %s %s = %s.Object()", objName, h.objectText, h.name)
		}
		edits = append(edits, analysis.TextEdit{Pos: h.fd.Body.Lbrace + 1, End: h.fd.Body.Lbrace + 1, NewText: []byte("\n\t" + decl)})
	}
	return append(edits, analysis.TextEdit{Pos: h.call.Pos(), End: h.call.End(), NewText: []byte(fmt.Sprintf("%s.Flush(%s)", h.name, h.text().source(h.call.Args[0])))})
}

// fieldTypes is the type expression of each parameter, by index, as
// h.params holds them (all named: kindHelperOf takes no unnamed one).
func (h *kindHelper) fieldTypes() []ast.Expr {
	var ts []ast.Expr
	for _, f := range paramFields(h.pass, h.fd) {
		if len(f.Names) > 0 {
			ts = append(ts, f.Type)
		}
	}
	return ts
}
