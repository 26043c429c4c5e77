package migrate

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"
)

// A lock base taken once near the read and reused (issue 72), the shape
// careful teams write:
//
//	statusBase := client.MergeFromWithOptions(obj.DeepCopy(), client.MergeFromWithOptimisticLock{})
//	... the status changes ...
//	if err := c.Status().Patch(ctx, obj, statusBase); err != nil { ... }
//	... more status changes ...
//	return c.Status().Patch(ctx, obj, statusBase)
//
// (or orig := obj.DeepCopy() first, the patch built from orig; optimistic
// or plain client.MergeFrom). Each patch sends every change since the
// base, locked, when optimistic, on the base's resourceVersion
// (controller-runtime's mergeFromPatch sets the original's version on the
// modified object), so once the first stores, the second conflicts. The
// writes move together onto one patcher made where the base is taken:
// each Flush sends the changes since the last one, locked on the version
// its last response gave: none blind, and the second stored where the
// handwritten one conflicted. A helper handed the object and
// the patch (flush(ctx, obj, statusBase)) is the helper shape's
// (migratehelperpatch.go), which counts a patch given to several calls.

// reusedPatch is a patch variable v of the write's function used by more
// than its write.
type reusedPatch struct {
	m *migration
	v *types.Var
}

// why returns "" when every use of the patch is the patch of a status
// Patch of the same object in the write's function (those writes are the
// group Fix moves together), else where it is used otherwise.
func (r reusedPatch) why() string {
	m, fn := r.m, r.m.enclosingFunc()
	for cur := range inspector.New([]*ast.File{m.file}).Root().Preorder((*ast.Ident)(nil)) {
		id := cur.Node().(*ast.Ident)
		if m.pass.TypesInfo.Uses[id] != r.v {
			continue
		}
		call, ok := cur.Parent().Node().(*ast.CallExpr)
		if ok && fn.Pos() <= call.Pos() && call.End() <= fn.End() && isStatusWrite(call) &&
			len(call.Args) == 3 && call.Args[2] == id && m.isObj(call.Args[1]) && statusVerb(call) == "Patch" {
			continue
		}
		return m.shapeWhy(fmt.Sprintf("the patch %s is used elsewhere: at line %d, other than as the patch of a status write of %s",
			r.v.Name(), m.pass.Fset.Position(id.Pos()).Line, m.obj.Name()))
	}
	return ""
}

// copiedBase handles patch := client.MergeFrom...(orig) with orig :=
// obj.DeepCopy() taken before it: the patcher is made at orig's
// statement (which stays when orig has other uses), and the patch's
// statement goes. It reports whether orig is such a copy.
func (r reusedPatch) copiedBase(def ast.Stmt, mf *ast.CallExpr) bool {
	m := r.m
	id, ok := ast.Unparen(mf.Args[0]).(*ast.Ident)
	if !ok {
		return false
	}
	orig, _ := m.pass.TypesInfo.Uses[id].(*types.Var)
	odef, val := m.definition(orig)
	if odef == nil || odef.End() > def.Pos() || !m.reads().isDeepCopyOfObj(val) {
		return false
	}
	m.anchor, m.keep, m.copyVar = odef, m.uses(orig) != 1, orig
	m.drop = append(m.drop, def)
	return true
}

// statusVerb is the method of a status write: Update, Patch or Apply.
func statusVerb(call *ast.CallExpr) string {
	sel, _ := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if sel == nil {
		return ""
	}
	return sel.Sel.Name
}
