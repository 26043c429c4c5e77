package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
)

// base says why a Patch's base is not what the patcher holds where it is
// taken: its Flush sends the changes since its own base, the handwritten
// patch those since its. The base's and the patch's statements go when
// the write was their only use (c.drop).
func (c *codeLife) base(l *life, cp madePatcher) string {
	if c.w() != "Patch" {
		return ""
	}
	m, name := c.migration, c.obj.Name()
	patch := ast.Unparen(m.call.Args[2])
	var mf *ast.CallExpr
	taken := ast.Node(m.call)
	if id, ok := patch.(*ast.Ident); ok {
		v, _ := m.pass.TypesInfo.Uses[id].(*types.Var)
		def, val := m.definition(v)
		call, ok := ast.Unparen(val).(*ast.CallExpr)
		if def == nil || !ok || !m.isMergeFrom(call) {
			return fmt.Sprintf("the patch %s is not a client.MergeFrom of a copy of %s taken in %s", types.ExprString(patch), name, m.funcText())
		}
		if m.uses(v) != 1 {
			return fmt.Sprintf("the patch %s is used elsewhere than this write, and this write becomes a Flush of %s", v.Name(), cp.via.Name())
		}
		mf, taken = call, def
		m.drop = append(m.drop, def)
	} else if call, ok := patch.(*ast.CallExpr); ok && m.isMergeFrom(call) {
		mf = call
	} else {
		return fmt.Sprintf("the patch %s is not a merge patch the patcher's Flush sends", types.ExprString(patch))
	}
	if id, ok := ast.Unparen(mf.Args[0]).(*ast.Ident); ok {
		v, _ := m.pass.TypesInfo.Uses[id].(*types.Var)
		def, val := m.definition(v)
		if def == nil || !m.reads().isDeepCopyOfObj(val) {
			return fmt.Sprintf("the base %s is not a copy of %s taken in %s", id.Name, name, m.funcText())
		}
		if m.uses(v) == 1 {
			m.drop = append(m.drop, def)
		}
		taken = def
	} else if !m.reads().isDeepCopyOfObj(mf.Args[0]) {
		return fmt.Sprintf("the base %s is not a copy of %s", types.ExprString(mf.Args[0]), name)
	}
	if taken == ast.Node(m.call) {
		return fmt.Sprintf("the base is taken at the write (%s): %s, where %s's Flush would send the changes since its last write", types.ExprString(mf), EmptyPatch, cp.via.Name())
	}
	if !l.freshAt(enclosingNode(l, taken)) {
		at := "since " + cp.via.Name() + " is made at " + m.where(cp.stmt.Pos())
		if l.changedAt != nil {
			at = "at " + m.where(l.changedAt.Pos())
		}
		return fmt.Sprintf("the base is taken at %s, after %s changes %s: the handwritten patch sends only what changes after it, %s's Flush would send those changes too", m.where(taken.Pos()), name, at, cp.via.Name())
	}
	return ""
}

// enclosingNode is the node of l's graph holding n's position (a
// statement of it), or n.
func enclosingNode(l *life, n ast.Node) ast.Node {
	if b, i := l.nodeAt(n.Pos()); b != nil {
		return b.Nodes[i]
	}
	return n
}
