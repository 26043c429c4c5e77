package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"

	"golang.org/x/tools/go/analysis"
)

// The life of a kindHelper call's object in its caller (migrategeneric.go,
// life.go): the patcher the caller's function already makes for its own
// status writes of the object, which the call shares instead of a second
// patcher of the same object; and a decision read from the status before
// the call, which moves into the patcher's Retry when the helper's body
// is only its write (the call is then the Retry: a 409 decides again,
// where a Flush would leave the next reconcile to decide twice).

// planCall plans kc's patcher and write: shared with the function's own
// writes of v, made at the object's read (the base dropped) or at the
// base, the call a Flush through the helper or the patcher's Retry; or
// why the call stays.
func planCall(h *kindHelper, kc *kindCaller, v *types.Var) string {
	if line := lateBase(kc, v); line != "" {
		return "passes " + v.Name() + " with a base taken after its status changes at " + line + ", and nothing changes " + v.Name() + " between the base and the call: " + EmptyPatch + ". Take the base before the changes (or make the patcher where " + v.Name() + " is read), then run -fix again"
	}
	if name, made, via := lifePatcher(h, kc, v); name != "" {
		anchor := made
		// Shared while the patcher still holds v at the call (lifehold.go),
		// its name the patcher's there; a base, what it holds at the base.
		l := newLife(kc.site, v)
		if l != nil {
			l.made, l.via, l.onlyMade = made, via, true
		}
		shared := l != nil && l.holdsAt(kc.call) && (kc.base == nil || l.freshAt(kc.base)) && namesAt(kc, name, via)
		if shared && h.alongside(kc, v, true) == "" {
			kc.shared, kc.name = name, name
			if kc.base != nil {
				kc.late = kc.base
			}
			m := callMigration(h, kc, v, anchor)
			m.via = via
			return planCallRetry(h, kc, m)
		}
	}
	if why := h.alongside(kc, v, false); why != "" {
		return why
	}
	if kc.base == nil {
		m := callMigration(h, kc, v, kc.before)
		m.get, m.getCheck = kc.get, kc.getCheck
		return planCallRetry(h, kc, m)
	}
	// The base taken with nothing changed since the object's read (a Get,
	// or a List's item taken): the patcher made there, the base dropped,
	// so that a decision between the read and the base moves too.
	if start, get, check := lifeStart(kc, v); start != nil {
		l := newLife(kc.site, v)
		if l != nil {
			l.made = start
		}
		if l != nil && l.freshAt(kc.base) {
			m := callMigration(h, kc, v, start)
			m.late, m.get, m.getCheck = kc.base, get, check
			if why := planRetry(m); why == "" && m.retry != nil && retryCall(h, kc, m) {
				kc.made, kc.late = start, kc.base
				return ""
			}
		}
	}
	return planCallRetry(h, kc, callMigration(h, kc, v, kc.base))
}

// planCallRetry sets kc's Retry from the table (planRetry) for a patcher
// made at m's anchor, or says why a call whose object must be written in
// Retry (a List's item) stays.
func planCallRetry(h *kindHelper, kc *kindCaller, m *migration) string {
	if why := planRetry(m); why != "" {
		if !m.item {
			return why // a call made once it cannot write (migrateretryonce.go)
		}
		return itemWhy(m, m.itemWhy, "") // itemWhy names the statement planRetry's reason adds
	}
	if m.retry != nil && len(m.retry.once) > 0 {
		// The call's Retry has no place for the OnceValue before it here.
		return m.shapeWhy(fmt.Sprintf("passes %s: its decision calls %s at %s, which Retry would call again on each attempt (%s); move the decision into the patcher's Retry by hand, that call made once", m.obj.Name(), types.ExprString(m.retry.once[0].call.Fun), m.where(m.retry.once[0].call.Pos()), CachedDecision))
	}
	if m.retry != nil && !retryCall(h, kc, m) {
		m.retry = nil
		if m.item {
			return itemWhy(m, m.itemWhy, h.fd.Name.Name+" does more than write it, or its context is not its first parameter, so the call cannot be the patcher's Retry")
		}
	}
	return ""
}

// itemWhy says why a call whose object must be written in Retry stays:
// what keeps the decision out of Retry, then why the object needs it.
func itemWhy(m *migration, why, what string) string {
	if what == "" {
		what = "no decision before the call can run again inside Retry"
		r := retries{migration: m}
		if s, l, i := writeList(r); i > 0 && !r.movable(l[i-1], s) && l[i-1] != m.late && l[i-1] != m.anchor {
			what = "its decision cannot move into Retry: " + r.stopWhy(l[i-1], s) // the fact that blocks it
		}
	}
	return "passes " + m.obj.Name() + ": " + what + ", and " + why
}

// retryCall reports whether the call can be the patcher's Retry: the
// helper's body is only its write, its context its first parameter, the
// object's type named in the caller's file. It sets kc's plan.
func retryCall(h *kindHelper, kc *kindCaller, m *migration) bool {
	if h.method != nil || !h.onlyWrite() || h.paramIndex(h.call.Args[0]) != 0 || len(m.retry.once) > 0 {
		return false
	}
	if _, ok := (retries{migration: m}).retryText("p", m.retry); !ok {
		return false
	}
	kc.retry, kc.m = m.retry, m
	return true
}

// onlyWrite reports whether the helper's body is return <its write>.
func (h *kindHelper) onlyWrite() bool {
	if len(h.fd.Body.List) != 1 {
		return false
	}
	ret, ok := h.fd.Body.List[0].(*ast.ReturnStmt)
	return ok && len(ret.Results) == 1 && ast.Unparen(ret.Results[0]) == ast.Expr(h.call)
}

// callMigration is the call seen as a write of v with its patcher made
// at anchor: what retries and the life read (migrateretry.go).
func callMigration(h *kindHelper, kc *kindCaller, v *types.Var, anchor ast.Stmt) *migration {
	m := &migration{site: *kc.site, obj: v, anchor: anchor, keep: true, patcherType: kc.patcher.Type, client: kc.clientExpr,
		moved: map[*ast.CallExpr]bool{kc.call: true}}
	if m.late = kc.late; m.late == nil && anchor != kc.base {
		m.late = kc.base
	}
	if why := m.reads().cachedItem(); why != "" {
		m.item, m.itemWhy = true, why
	}
	return m
}

// lifeStart is where v's life in the caller starts before the base: the
// last Get of it (and the if checking its error), or, for a List's item,
// the statement taking it.
func lifeStart(kc *kindCaller, v *types.Var) (start, get, check ast.Stmt) {
	m := &migration{site: *kc.site, obj: v}
	if m.reads().findGetBefore(kc.base.Pos()); m.anchor != nil {
		return m.anchor, m.get, m.getCheck
	}
	if def, _ := m.definition(v); def != nil {
		if _, ok := m.reads().listItem(); ok {
			return def, nil, nil
		}
	}
	return nil, nil, nil
}

// lifePatcher is the patcher the caller's function makes for its own
// status writes of v, which -fix moves onto one patcher (a group made at
// its read, or a conflict loop's Fetch), or one its code makes already
// (codePatcher), made before the call: its name, the statement after
// which v is what it holds, and its variable when the code made it. ""
// when there is none.
func lifePatcher(h *kindHelper, kc *kindCaller, v *types.Var) (string, ast.Stmt, *types.Var) {
	fn := kc.enclosingFunc()
	for _, o := range h.ws {
		call, ok := h.files.Calls[o.Lparen]
		if !ok || call == h.call || o.Generated || call.Pos() < fn.Pos() || call.End() > fn.End() || len(call.Args) < 2 {
			continue
		}
		if id, ok := ast.Unparen(call.Args[1]).(*ast.Ident); !ok || h.pass.TypesInfo.Uses[id] != v {
			continue
		}
		fix, _ := Fix(h.pass, h.files, h.opts, h.ws, o)
		if fix == nil || len(fix.TextEdits) == 0 || fix.TextEdits[0].Pos > kc.call.Pos() {
			return "", nil, nil
		}
		name := onePatcher(fix)
		om, _, _ := prepareMigration(h.pass, h.files, h.opts, o)
		if name == "" || om == nil || om.anchor == nil {
			return "", nil, nil
		}
		made := om.anchor
		if l, _ := loopOf(om); l != nil {
			made = l.stmt
		}
		// Made on every path to the call, in scope there: in a block
		// around it, before it.
		around := false
		for _, list := range kc.enclosingLists() {
			around = around || slices.Contains(list, made) && made.End() <= kc.call.Pos()
		}
		if !around {
			return "", nil, nil
		}
		if is, ok := made.(*ast.IfStmt); ok && is.Init != nil && om.anchor != made {
			made = is.Init // the loop in the if's init: the Fetch goes before the if
		}
		return name, made, nil
	}
	return codePatcher(kc, v)
}

// codePatcher is a patcher of v's kind the caller's code makes itself in
// a block around the call, before it: p := patchers.New<Kind>StatusPatcher(c, v),
// or v := p.Object() (v = p.Object()) of one; the last such.
func codePatcher(kc *kindCaller, v *types.Var) (string, ast.Stmt, *types.Var) {
	var name string
	var made ast.Stmt
	var via *types.Var
	for _, list := range kc.enclosingLists() {
		for _, s := range list {
			as, ok := s.(*ast.AssignStmt)
			if !ok || s.End() > kc.call.Pos() || len(as.Lhs) != 1 || len(as.Rhs) != 1 || made != nil && s.Pos() < made.Pos() {
				continue
			}
			call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			lhs, ok2 := as.Lhs[0].(*ast.Ident)
			if !ok || !ok2 {
				continue
			}
			fn := kube.CalledFunc(kc.pass, call)
			sel, _ := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			switch {
			case fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == kc.patcher.Pkg && fn.Name() == "New"+kc.patcher.Type && len(call.Args) >= 2 && kc.isObjArg(call.Args[1], v):
				p, _ := kc.pass.TypesInfo.ObjectOf(lhs).(*types.Var)
				name, made, via = lhs.Name, s, p
			case sel != nil && sel.Sel.Name == "Object" && len(call.Args) == 0 && kc.pass.TypesInfo.ObjectOf(lhs) == v:
				id, ok := ast.Unparen(sel.X).(*ast.Ident)
				p, _ := kc.pass.TypesInfo.Uses[id].(*types.Var)
				if ok && p != nil && isPatcherOf(p.Type(), kc.patcher) {
					name, made, via = id.Name, s, p
				}
			}
		}
	}
	if via == nil {
		return "", nil, nil
	}
	return name, made, via
}

// namesAt reports whether name, at kc's call, is the code's patcher
// variable via (not one an inner scope declares); a patcher -fix makes
// (via nil) is named by the fix.
func namesAt(kc *kindCaller, name string, via *types.Var) bool {
	if via == nil {
		return true
	}
	sc := kc.pass.Pkg.Scope().Innermost(kc.call.Pos())
	if sc == nil {
		return false
	}
	_, obj := sc.LookupParent(name, kc.call.Pos())
	return obj == via
}

// isPatcherOf reports whether t is *p (the generated patcher's type).
func isPatcherOf(t types.Type, p Patcher) bool {
	ptr, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(ptr.Elem()).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == p.Pkg && n.Obj().Name() == p.Type
}

// onePatcher is the one patcher variable a fix names, or "".
func onePatcher(fix *analysis.SuggestedFix) string {
	var names []string
	for _, e := range fix.TextEdits {
		for _, n := range patcherVar.FindAllString(string(e.NewText), -1) {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	if len(names) != 1 {
		return ""
	}
	return names[0]
}

// callEdits are the edits of a call made its patcher's Retry: the
// decision's lines gone into mutate (a guard stays around it), the base
// dropped.
func callEdits(kc *kindCaller) []analysis.TextEdit {
	r := retries{migration: kc.m}
	p := kc.retry
	text, _ := r.retryText(kc.name, p)
	edits := append(r.deleteBlock(p), analysis.TextEdit{Pos: kc.call.Pos(), End: kc.call.End(), NewText: []byte(text)})
	if kc.late != nil {
		edits = append(edits, kc.text().deleteStmt(kc.late))
	}
	return edits
}

// removeEdits delete the helper, its doc comment with it, and the
// imports of its file nothing else uses.
func (h *kindHelper) removeEdits() []analysis.TextEdit {
	tf := h.pass.Fset.File(h.fd.Pos())
	from := h.fd.Pos()
	if h.fd.Doc != nil {
		from = h.fd.Doc.Pos()
	}
	end := h.fd.End()
	if src, err := h.pass.ReadFile(tf.Name()); err == nil && tf.Offset(end) < len(src) && src[tf.Offset(end)] == '\n' {
		end++
	}
	edits := []analysis.TextEdit{{Pos: tf.LineStart(tf.Line(from)), End: end}}
	used := map[types.Object]bool{}
	for id, obj := range h.pass.TypesInfo.Uses {
		if _, ok := obj.(*types.PkgName); ok && id.Pos() >= h.file.Pos() && id.End() <= h.file.End() && (id.Pos() < h.fd.Pos() || id.Pos() >= h.fd.End()) {
			used[obj] = true
		}
	}
	for _, d := range h.file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		var gone []ast.Spec
		for _, spec := range gd.Specs {
			is := spec.(*ast.ImportSpec)
			if pn := h.pass.TypesInfo.PkgNameOf(is); pn != nil && !used[pn] && (is.Name == nil || is.Name.Name != "_" && is.Name.Name != ".") {
				gone = append(gone, spec)
			}
		}
		if len(gone) == len(gd.Specs) {
			edits = append(edits, analysis.TextEdit{Pos: gd.Pos(), End: gd.End()})
			continue
		}
		for _, spec := range gone {
			edits = append(edits, analysis.TextEdit{Pos: tf.LineStart(tf.Line(spec.Pos())), End: lineEnd(tf, spec.End())})
		}
	}
	return edits
}

// lineEnd is the start of the line after pos's, or pos at the file's end.
func lineEnd(tf *token.File, pos token.Pos) token.Pos {
	if l := tf.Line(pos); l < tf.LineCount() {
		return tf.LineStart(l + 1)
	}
	return pos
}

// isObjArg reports whether e is v.
func (kc *kindCaller) isObjArg(e ast.Expr, v *types.Var) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && kc.pass.TypesInfo.Uses[id] == v
}
