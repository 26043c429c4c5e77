package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
)

// A helper that takes its own base of the object its caller hands it
// (issue 80, the newcomer scaffold's markObserved):
//
//	func (r *R) markObserved(ctx context.Context, w *T) error {
//		base := w.DeepCopy()
//		w.Status.ObservedGeneration = w.Generation
//		return r.Status().Patch(ctx, w, client.MergeFrom(base))
//	}
//
// moved in place, it makes its own patcher from w; when a caller already
// holds one of w (the code's, or the one its own writes' move makes), two
// patchers of one object are alive at once, each locked on its own
// version. One patcher per object life: when a caller holds one, the
// helper takes the patcher as a helper of an Update does
// (migratehelper.go), its base dropped, and every caller passes its own
// or makes one at its read. The base is the helper's first use of w, so
// the patch sends what the helper changes; the patcher's Flush sends that
// and what its caller left unsent: each call must come with nothing
// unsent (fresh on every path). With no caller holding a patcher, the
// write moves in place, as before.

// ownBaseHelper is such a helper's write: its move, and the base's
// statement, which goes.
type ownBaseHelper struct {
	*helperMove
	base ast.Stmt
}

// recogniseOwnBaseHelper recognises a merge patch of a helper's parameter
// from a base the helper takes first, in a helper a caller of which holds
// a patcher of the object.
func recogniseOwnBaseHelper(r *recognition) (*ownBaseHelper, string, bool) {
	if r.w.Verb != "Patch" {
		return nil, "", false
	}
	m := r.prepareMerge()
	if m == nil || m.helper != nil || m.anchor == nil || m.baseVar == nil || m.keep || m.item || m.late != nil || m.lateInline || m.copyOf != nil || m.apply != nil {
		return nil, "", false
	}
	fd := m.helperDecl()
	if fd == nil || !slices.Contains(fd.Body.List, m.anchor) || !ownBaseStmt(m, m.anchor) {
		return nil, "", false
	}
	for range m.usesOf(fd.Body, m.obj, fd.Body.Pos(), m.anchor.Pos()) {
		return nil, "", false // used before its base: the base is not the helper's first look
	}
	used := false
	for cur := range m.usesOf(fd.Body, m.obj, m.anchor.End(), fd.Body.End()) {
		used = used || cur.Node().Pos() < m.call.Pos() || cur.Node().Pos() >= m.call.End()
	}
	if !used || len(holdingCallers(m, fd, r.files, r.ws, r.p)) == 0 {
		return nil, "", false
	}
	h := &helperMove{migration: m, decl: fd}
	base := m.anchor
	m.helper, m.anchor, m.baseVar = h, nil, nil
	return &ownBaseHelper{helperMove: h, base: base}, "", true
}

// ownBaseStmt reports whether s is base := obj.DeepCopy() or patch :=
// client.MergeFrom(obj.DeepCopy()) (or MergeFromWithOptions with the
// lock).
func ownBaseStmt(m *migration, s ast.Stmt) bool {
	as, ok := s.(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 {
		return false
	}
	val := ast.Unparen(as.Rhs[0])
	if mf, ok := val.(*ast.CallExpr); ok && m.isMergeFrom(mf) {
		val = mf.Args[0]
	}
	return m.reads().isDeepCopyOfObj(val)
}

// holdingCallers are the calls of the helper fd in the package whose
// function holds a patcher of the object it hands: the code makes one
// (madePatchers), or writes the object's status, which -fix moves onto
// one.
func holdingCallers(m *migration, fd *ast.FuncDecl, files Files, ws []*Write, p Patcher) []*migration {
	fn, _ := m.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	i := slices.Index(paramVars(m.pass, fd), m.obj)
	if fn == nil || i < 0 {
		return nil
	}
	var found []*migration
	for _, f := range m.pass.Files {
		for cur := range m.usesOf(f, fn, f.FileStart, f.FileEnd) {
			call, _ := callOf(cur)
			if call == nil || i >= len(call.Args) {
				continue
			}
			id, ok := ast.Unparen(call.Args[i]).(*ast.Ident)
			v, _ := m.pass.TypesInfo.Uses[id].(*types.Var)
			if !ok || v == nil {
				continue
			}
			c := &migration{site: site{place: place{calls: m.calls, file: f, call: call, path: pathOf(cur)}}, obj: v, patcherType: m.patcherType}
			if len(madePatchers(c, p)) > 0 || writesIn(c, files, ws) {
				found = append(found, c)
			}
		}
	}
	return found
}

// writesIn reports whether c's function writes c.obj's status by hand.
func writesIn(c *migration, files Files, ws []*Write) bool {
	fn := c.enclosingFunc()
	return slices.ContainsFunc(ws, func(o *Write) bool {
		call, ok := files.Calls[o.Lparen]
		return ok && !o.Generated && call != c.call && fn.Pos() <= call.Pos() && call.End() <= fn.End() && len(call.Args) > 1 && c.isObj(call.Args[1])
	})
}

// fix moves the helper onto its callers' patcher, its base gone, or says
// why it stays: a caller holding a patcher calls it with a change of the
// object unsent, which the handwritten patch leaves out and a Flush would
// send.
func (o *ownBaseHelper) fix(p Patcher, files Files, ws []*Write, opts Options) (*analysis.SuggestedFix, string) {
	for _, c := range holdingCallers(o.migration, o.decl, files, ws, p) {
		if why := unsentAtCall(c, p); why != "" {
			return nil, o.shapeWhy(fmt.Sprintf("%s is a parameter of %s, which takes its own base at %s: %s", o.obj.Name(), o.decl.Name.Name, o.where(o.base.Pos()), why))
		}
	}
	fix, why := o.helperFix(p, files, ws, opts)
	if fix == nil {
		return nil, why
	}
	fix.TextEdits = append(fix.TextEdits, o.text().deleteStmt(o.base))
	fix.Message = fix.Message[:len(fix.Message)-1] + "; its own base goes)"
	return fix, ""
}

// unsentAtCall says why c, a call of the helper in a function holding a
// patcher of c.obj, may come with a change of the object unsent: on a
// path to it, the object may have changed since its read, its status
// write or the patcher's Flush.
func unsentAtCall(c *migration, p Patcher) string {
	l := newLife(&c.site, c.obj)
	if l == nil {
		return fmt.Sprintf("%s's life in %s is not seen", c.obj.Name(), c.funcText())
	}
	for _, cp := range madePatchers(c, p) {
		if cp.stmt.End() <= c.call.Pos() && l.reaches(cp.stmt.Pos(), c.call.Pos()) {
			l.made, l.via = cp.stmt, cp.via
		}
	}
	if l.freshAt(enclosingNode(l, c.call)) {
		return ""
	}
	at := ""
	if l.changedAt != nil {
		at = " at " + c.where(l.changedAt.Pos())
	}
	return fmt.Sprintf("its caller at %s calls it after %s may change%s, unsent: the helper's patch leaves that change out, a Flush of the caller's patcher would send it", c.where(c.call.Pos()), c.obj.Name(), at)
}
