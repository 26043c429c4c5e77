package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
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

// madeBefore reports whether the use at the top of stack of m's object
// before the anchor of a write beside the code's patcher is of another
// object (refetched), or whether the call at the top of stack, a use of m's
// object before the anchor of a write beside the code's patcher (m.via),
// makes an earlier patcher of it assigned to that variable (p :=
// New<Kind>StatusPatcher(c, obj), then p, err = Fetch...(...) and obj =
// p.Object() at the anchor): the variable is made again before the
// write, and that earlier patcher, used only through its methods, is
// gone with it, not a reference into the object kept.
func madeBefore(m *migration, stack []ast.Node) bool {
	if m.via == nil || len(stack) < 3 {
		return false
	}
	if refetched(m) {
		return true
	}
	call, ok := stack[len(stack)-2].(*ast.CallExpr)
	as, ok2 := stack[len(stack)-3].(*ast.AssignStmt)
	if !ok || !ok2 || len(as.Lhs) != 1 || len(as.Rhs) != 1 || as.Rhs[0] != ast.Expr(call) {
		return false
	}
	if identOf(m.pass, as.Lhs[0]) != m.via {
		return false
	}
	if fn := kube.CalledFunc(m.pass, call); fn == nil || !patcherMaker(fn) {
		return false
	}
	for cur := range m.usesOf(m.enclosingFunc(), m.via, m.enclosingFunc().Pos(), m.enclosingFunc().End()) {
		switch p := cur.Parent().Node().(type) {
		case *ast.SelectorExpr:
			if _, called := cur.Parent().Parent().Node().(*ast.CallExpr); called {
				continue // p.Flush(ctx), p.Object()
			}
		case *ast.AssignStmt:
			if slices.Contains(p.Lhs, cur.Node().(ast.Expr)) {
				continue
			}
		}
		return false // copied or handed on: the earlier patcher may live on
	}
	return true
}

// refetched reports whether m's anchor is obj = p.Object() (or :=) of
// the code's patcher p last assigned, on the anchor's block, by a
// Fetch<Kind>StatusPatcher of its own (not Into): the object is a fresh
// read no earlier use reaches, unless p.Object() is taken before it. m.via
// is not nil (madeBefore).
func refetched(m *migration) bool {
	as, ok := m.anchor.(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 || len(as.Lhs) != 1 || !m.defines(as.Lhs[0], m.obj) && !passesObj(m.pass.TypesInfo, m.obj, as.Lhs[0]) {
		return false
	}
	obj, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := ast.Unparen(obj.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Object" || identOf(m.pass, sel.X) != m.via {
		return false
	}
	var last *ast.CallExpr // the last assignment of p before the anchor
	taken := false         // p.Object() before the anchor
	ast.Inspect(m.enclosingFunc(), func(n ast.Node) bool {
		if n == nil || n.Pos() >= m.anchor.Pos() {
			return n == nil || n.Pos() < m.anchor.Pos()
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Rhs) == 1 && slices.ContainsFunc(n.Lhs, func(e ast.Expr) bool { return identOf(m.pass, e) == m.via }) {
				last, _ = ast.Unparen(n.Rhs[0]).(*ast.CallExpr)
			}
		case *ast.SelectorExpr:
			taken = taken || n.Sel.Name == "Object" && identOf(m.pass, n.X) == m.via
		}
		return true
	})
	if last == nil || taken {
		return false
	}
	fn := kube.CalledFunc(m.pass, last)
	return fn != nil && fn.Name() == "Fetch"+m.patcherType && sameBlock(m, last)
}

// sameBlock reports whether call is in a statement of a block enclosing
// the write (on every path to the anchor, not in a branch).
func sameBlock(m *migration, call *ast.CallExpr) bool {
	for _, list := range m.enclosingLists() {
		for _, s := range list {
			if s.Pos() <= call.Pos() && call.End() <= s.End() {
				_, isIf := s.(*ast.IfStmt)
				return !isIf || s.(*ast.IfStmt).Init != nil && s.(*ast.IfStmt).Init.Pos() <= call.Pos() && call.End() <= s.(*ast.IfStmt).Init.End()
			}
		}
	}
	return false
}
