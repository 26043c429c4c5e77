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
func (m *migration) otherPatch(patch ast.Expr) string {
	return m.shapeWhy("the patch " + types.ExprString(patch) + " is not client.MergeFrom(base) or client.Merge: Flush sends a merge patch of the status changes since the patcher was made; move it by hand")
}

// lateBase reports whether the base def (of v) is taken after status
// changes of the object since its read in this function, with no write
// or read of the object between: then the anchor is the read, and def is
// dropped when nothing else uses v.
func (m *migration) lateBase(def ast.Stmt, v *types.Var) bool {
	r := &migration{site: m.site, obj: m.obj, audit: true}
	if r.findGetBefore(def.Pos()); r.anchor == nil {
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
func (m *migration) statusChangedBetween(from, to token.Pos) bool {
	changed, called := false, false
	var stack []ast.Node
	ast.Inspect(m.enclosingFunc(), func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		id, ok := n.(*ast.Ident)
		if !ok || id.Pos() < from || id.Pos() >= to || m.pass.TypesInfo.Uses[id] != m.obj {
			return true
		}
		i := len(stack) - 1
		if call, ok := stack[i-1].(*ast.CallExpr); ok && call.Fun != id {
			called = true
			return true
		}
		sel, ok := stack[i-1].(*ast.SelectorExpr)
		if !ok || sel.X != id || sel.Sel.Name != "Status" {
			return true
		}
		top := i - 1
	climb:
		for top > 0 {
			switch p := stack[top-1].(type) {
			case *ast.SelectorExpr:
				if p.X != stack[top] {
					break climb
				}
			case *ast.IndexExpr:
				if p.X != stack[top] {
					break climb
				}
			case *ast.ParenExpr, *ast.StarExpr:
			default:
				break climb
			}
			top--
		}
		switch p := stack[top-1].(type) {
		case *ast.AssignStmt:
			changed = changed || isLHS(p, stack[top])
		case *ast.IncDecStmt:
			changed = true
		case *ast.UnaryExpr:
			changed = changed || p.Op == token.AND
		}
		return true
	})
	return changed && !called
}

// lateNote says, in the fix's message, that a late base moved to the read.
func (m *migration) lateNote() string {
	if m.late == nil && !m.lateInline {
		return ""
	}
	return "; its base was taken after the status changes (an empty patch, which wrote none of them): the patcher is made at the read, and Flush writes them"
}
