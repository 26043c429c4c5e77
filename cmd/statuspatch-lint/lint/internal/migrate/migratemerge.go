package migrate

import (
	"go/ast"
	"go/token"
	"go/types"
)

// The blind merge patches kubebuilder users write, moved like an Update:
//
//   - c.Status().Patch(ctx, obj, client.Merge): the whole object as a merge
//     patch (what the code set in the status since it read the object,
//     never a field it cleared): the patcher is made at the read, as for
//     an Update, and Flush writes what changed since, a cleared field
//     included;
//   - a base taken late, after the status changes since the read:
//     client.MergeFrom(obj.DeepCopy()) at the write, or base :=
//     obj.DeepCopy() (patch := client.MergeFrom(obj.DeepCopy())) after
//     them: an empty patch, whose response came back over the changes.
//     The changes start at the read: the patcher is made there, the late
//     base dropped, and Flush writes them.

// otherPatch is why a Patch whose patch is none of the shapes -fix moves
// stays.
func (m reads) otherPatch(patch ast.Expr) string {
	return m.shapeWhy("the patch " + types.ExprString(patch) + " is not client.MergeFrom(base) or client.Merge: Flush sends a merge patch of the status changes since the patcher was made; move it by hand")
}

// lateBase reports whether the base def (of v) is taken after status
// changes of the object since its read in this function, with no write
// or read of the object between: then the anchor is the read, and def is
// dropped when nothing else uses v.
func (m reads) lateBase(def ast.Stmt, v *types.Var) bool {
	r := &migration{site: m.site, obj: m.obj, audit: true}
	if r.reads().findGetBefore(def.Pos()); r.anchor == nil {
		return false
	}
	if !m.statusChangedBetween(r.anchor.End(), def.Pos()) {
		return false
	}
	m.anchor, m.keep, m.get, m.getCheck = r.anchor, true, r.get, r.getCheck
	m.late, m.lateVar = def, v
	m.lateKeep = m.uses(v) != 1
	return true
}

// statusChangedBetween reports whether, between from and to, the status of
// the object is assigned or taken by address (meta.SetStatusCondition(
// &obj.Status.Conditions, ...)), and no call takes the object itself (a
// write or a read of it, which makes a base after it right).
func (m reads) statusChangedBetween(from, to token.Pos) bool {
	changed := false
	for c := range m.usesOf(m.enclosingFunc(), m.obj, from, to) {
		switch p := c.Parent().Node().(type) {
		case *ast.CallExpr:
			if p.Fun != c.Node() {
				return false // the object itself handed to a call
			}
		case *ast.SelectorExpr:
			if p.X != c.Node() || p.Sel.Name != "Status" {
				continue
			}
			top := chainTop(c.Parent(), nil)
			switch q := top.Parent().Node().(type) {
			case *ast.AssignStmt:
				changed = changed || isLHS(q, top.Node())
			case *ast.IncDecStmt:
				changed = true
			case *ast.UnaryExpr:
				changed = changed || q.Op == token.AND
			}
		}
	}
	return changed
}

// lateNote says, in the fix's message, that a late base moved to the read.
func (m *migration) lateNote() string {
	if m.late == nil && !m.lateInline || m.lateFresh {
		return ""
	}
	return "; its base was taken after the status changes (an empty patch, which wrote none of them): the patcher is made at the read, and Flush writes them"
}
