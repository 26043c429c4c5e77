package migrate

import (
	"go/ast"
	"go/types"
	"regexp"
	"slices"

	"golang.org/x/tools/go/analysis"
)

// A write-only helper its callers give a ready-made patch,
//
//	func (r *R) patchStatus(ctx context.Context, obj *T, patch client.Patch) error {
//		return r.Status().Patch(ctx, obj, patch)
//	}
//
// moves as one whose base its callers take (migratehelper.go): the patch
// parameter and each call's patch argument go, and each caller makes the
// patcher where its patch, or the base of its client.MergeFrom(base), is
// taken.

// patchAnchor sets c.anchor for a caller that gives the helper the patch
// arg: a variable patch := client.MergeFrom(obj.DeepCopy()) of the caller
// (replaced by the patcher), or client.MergeFrom(base) with base :=
// obj.DeepCopy() (the base's statement, as for a base the helper takes).
func (c *migration) patchAnchor(arg ast.Expr) string {
	deepCopy := c.obj.Name() + ".DeepCopy()"
	switch a := ast.Unparen(arg).(type) {
	case *ast.Ident:
		v, _ := c.pass.TypesInfo.Uses[a].(*types.Var)
		def, val := c.definition(v)
		mf, ok := val.(*ast.CallExpr)
		if def == nil || !ok || !c.isMergeFrom(mf) || !c.reads().isDeepCopyOfObj(mf.Args[0]) {
			return callerNoBase(c, v, "patch", "client.MergeFrom("+deepCopy+")")
		}
		c.anchor, c.baseVar = def, v
		return ""
	case *ast.CallExpr:
		if !c.isMergeFrom(a) {
			return c.shapeWhy("the patch " + types.ExprString(a) + " is not client.MergeFrom(base)")
		}
		if c.reads().isDeepCopyOfObj(a.Args[0]) {
			return c.shapeWhy("the patch is taken at the call (client.MergeFrom(" + deepCopy + ") there is an empty patch): take the base where " + c.obj.Name() + " is read, or move the write by hand")
		}
		id, ok := ast.Unparen(a.Args[0]).(*ast.Ident)
		if !ok {
			return c.shapeWhy("the base " + types.ExprString(a.Args[0]) + " is not a variable")
		}
		v, _ := c.pass.TypesInfo.Uses[id].(*types.Var)
		if def, val := c.definition(v); def != nil && c.reads().isDeepCopyOfObj(val) {
			c.anchor, c.baseVar = def, v
			return ""
		}
		return callerNoBase(c, v, "base", deepCopy)
	}
	return c.shapeWhy("the patch " + types.ExprString(arg) + " is not a variable or client.MergeFrom(base)")
}

// patchIsParam reports whether the write is c.Status().Patch(ctx, obj,
// patch) with patch a parameter of the helper used only there (a helper
// its callers give a ready-made patch), and sets h.baseParam and
// h.patchParam: each caller's patch := client.MergeFrom(obj.DeepCopy()),
// or base := obj.DeepCopy() of its client.MergeFrom(base) argument, is
// where it makes the patcher.
func (h *helperMove) patchIsParam() bool {
	id, ok := ast.Unparen(h.call.Args[2]).(*ast.Ident)
	if !ok {
		return false
	}
	v, _ := h.pass.TypesInfo.Uses[id].(*types.Var)
	if v == nil || v == h.obj || h.paramOf(v) != h.decl.Name.Name || h.uses(v) != 1 {
		return false
	}
	h.baseParam, h.patchParam = v, true
	return true
}

// baseIsParam reports whether the write is c.Status().Patch(ctx, obj,
// client.MergeFrom(base)) with base a parameter of the helper too, and sets
// h.baseParam: each caller's base := obj.DeepCopy() is where it makes the
// patcher.
func (h *helperMove) baseIsParam() bool {
	mf, ok := ast.Unparen(h.call.Args[2]).(*ast.CallExpr)
	if !ok || !h.isMergeFrom(mf) {
		return false
	}
	id, ok := ast.Unparen(mf.Args[0]).(*ast.Ident)
	if !ok {
		return false
	}
	v, _ := h.pass.TypesInfo.Uses[id].(*types.Var)
	if v == nil || v == h.obj || h.paramOf(v) != h.decl.Name.Name || h.uses(v) != 1 {
		return false
	}
	h.baseParam = v
	return true
}

// callerAnchor sets c.anchor, where the caller makes the patcher: for an
// Update, its read of the object (findGet); for a Patch whose base the
// helper takes, the caller's base := obj.DeepCopy() in a block enclosing
// the call; for one whose patch it takes, the caller's patch :=
// client.MergeFrom(obj.DeepCopy()), or the base of its
// client.MergeFrom(base) argument. It returns why there is none.
func (h *helperMove) callerAnchor(c *migration) string {
	if h.baseParam == nil {
		return c.reads().findGet()
	}
	i := slices.Index(h.params(), h.baseParam)
	if h.patchParam {
		return c.patchAnchor(c.call.Args[i])
	}
	id, ok := ast.Unparen(c.call.Args[i]).(*ast.Ident)
	if !ok {
		return "the base " + types.ExprString(c.call.Args[i]) + " is not a variable"
	}
	v, _ := h.pass.TypesInfo.Uses[id].(*types.Var)
	if def, val := c.definition(v); def != nil && c.reads().isDeepCopyOfObj(val) {
		c.anchor, c.baseVar = def, v
		return ""
	}
	return callerNoBase(c, v, "base", c.obj.Name()+".DeepCopy()")
}

// isUpdate reports whether the write is an Update.
func (h *helperMove) isUpdate() bool {
	sel, ok := ast.Unparen(h.call.Fun).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Update"
}

// patcherMade matches an edit making a patcher (wPatcher := patchers.New...).
var patcherMade = regexp.MustCompile(`\b[a-z_][A-Za-z0-9_]*Patcher[0-9]*(, [a-z_][A-Za-z0-9_]*)? :?= `)

// otherPatcher reports whether fix, a helper's move reached from c's
// function through decls (the functions it hands c.obj to), makes its
// patcher elsewhere than at c's anchor: in one of decls, which reads the
// object again (rereadVia: Get, then the helper), or at another place of
// c's function. Its write is then no write of c's patcher: at 1fea6e8 a
// caller's own write after such a call moved, and its Flush, on a base
// older than the other patcher's write, was a Conflict.
func otherPatcher(c *migration, decls []*ast.FuncDecl, fix *analysis.SuggestedFix) bool {
	fn := c.enclosingFunc()
	for _, e := range fix.TextEdits {
		if !patcherMade.Match(e.NewText) {
			continue
		}
		if fn.Pos() <= e.Pos && e.Pos < fn.End() {
			if c.anchor == nil || e.Pos != c.anchor.End() && (e.Pos != c.anchor.Pos() || e.End != c.anchor.End()) {
				return true
			}
			continue
		}
		if slices.ContainsFunc(decls, func(fd *ast.FuncDecl) bool { return fd.Pos() <= e.Pos && e.Pos < fd.End() }) {
			return true
		}
	}
	return false
}
