package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
)

// blockGetWhy names a Get of the object before the write, in its
// function, that is in a block the write is not in: a branch of an if or
// a switch, a loop's body, a block of its own (the object read by one key
// or another, or until the read succeeds). findGet takes a Get in a
// statement list around the write, where the patcher made after it is in
// scope at the write; this one's patcher would not be. s112's adversary
// (advhunt2/reads.go): at 68b1b549 these writes stayed saying the object
// was "not read with Get in" the function, which it was. "" when there is
// none (a Get in a function literal is not named: when it runs is not
// seen), so the reason "not read with Get" is said only where it is true.
func blockGetWhy(m reads) string {
	fn := m.enclosingFunc()
	if fn == nil {
		return ""
	}
	for use := range m.usesOf(fn, m.obj, fn.Pos(), m.call.Pos()) {
		arg := use
		if u, ok := arg.Parent().Node().(*ast.UnaryExpr); ok && u.Op == token.AND {
			arg = arg.Parent()
		}
		get, ok := arg.Parent().Node().(*ast.CallExpr)
		if !ok || len(get.Args) != 3 || get.Args[2] != arg.Node() || m.clientWrite(get) != "Get" {
			continue
		}
		// The statement below the innermost node around both the Get
		// and the write, if a block lies between it and the Get.
		var outer ast.Node
		block, lit := false, false
		for c := range arg.Parent().Enclosing() {
			n := c.Node()
			if n.Pos() <= m.call.Pos() && m.call.End() <= n.End() {
				break
			}
			switch n.(type) {
			case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
				block = true
			case *ast.FuncLit:
				lit = true
			}
			outer = n
		}
		if outer == nil || !block || lit {
			continue
		}
		if l, ok := outer.(*ast.LabeledStmt); ok {
			outer = l.Stmt
		}
		return m.shapeWhy(fmt.Sprintf("%s is read with Get at %s inside the %s at %s, which the write is not in: the patcher -fix makes after a Get would not be in scope at the write; make New%s after that %s and call its Flush(ctx) here",
			m.obj.Name(), m.where(get.Pos()), stmtKind(outer), m.where(outer.Pos()), m.patcherType, stmtKind(outer)))
	}
	return ""
}

// stmtKind names a statement that holds blocks as a reason says it.
func stmtKind(n ast.Node) string {
	switch n.(type) {
	case *ast.IfStmt:
		return "if statement"
	case *ast.ForStmt, *ast.RangeStmt:
		return "for loop"
	case *ast.SwitchStmt, *ast.TypeSwitchStmt:
		return "switch"
	case *ast.SelectStmt:
		return "select"
	case *ast.BlockStmt:
		return "block"
	}
	return "statement"
}

// assertedGetWhy names, for an object that is a type assertion of
// another variable (if w, ok := obj.(*Kind); ok, or a type switch's
// case), the Get that read that variable before the assertion: findGet
// takes a Get of the written variable itself. s112's adversary
// (advhunt2/reads.go): at 68b1b549 these writes stayed saying the object
// was "not read with Get in" the function, where what it asserts was.
// "" when the object is no assertion, or what it asserts is not read so.
func assertedGetWhy(m reads) string {
	fn := m.enclosingFunc()
	root, ok := m.cursor(fn)
	if fn == nil || !ok {
		return ""
	}
	for c := range root.Preorder((*ast.AssignStmt)(nil)) {
		as := c.Node().(*ast.AssignStmt)
		if as.Tok != token.DEFINE || len(as.Rhs) != 1 || len(as.Lhs) == 0 || as.Lhs[0].Pos() != m.obj.Pos() {
			continue
		}
		ta, ok := ast.Unparen(as.Rhs[0]).(*ast.TypeAssertExpr)
		if !ok {
			return ""
		}
		from := identOf(m.pass, ta.X)
		if from == nil {
			return ""
		}
		for use := range m.usesOf(fn, from, fn.Pos(), as.Pos()) {
			get, ok := use.Parent().Node().(*ast.CallExpr)
			if !ok || len(get.Args) != 3 || get.Args[2] != use.Node() || m.clientWrite(get) != "Get" {
				continue
			}
			return m.shapeWhy(fmt.Sprintf("%s is %s asserted at %s, and %s is read with Get at %s: -fix makes the patcher at a Get of the variable the write writes; make New%s after the assertion and call its Flush(ctx) here",
				m.obj.Name(), from.Name(), m.where(ta.Pos()), from.Name(), m.where(get.Pos()), m.patcherType))
		}
		return ""
	}
	return ""
}
