package migrate

import (
	"go/ast"
	"go/token"
	"go/types"
	"iter"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// writesOf yields, in source order, the cursor of each node under root
// that may set an expression is tells: an assignment with it on the left,
// or its address taken (&v, written through later). It does not enter
// the nodes below root that skip tells (nil: none).
func writesOf(root inspector.Cursor, is func(ast.Expr) bool, skip func(ast.Node) bool) iter.Seq[inspector.Cursor] {
	return func(yield func(inspector.Cursor) bool) {
		done := false
		root.Inspect(nil, func(c inspector.Cursor) bool {
			if done || c != root && skip != nil && skip(c.Node()) {
				return false
			}
			hit := false
			switch n := c.Node().(type) {
			case *ast.AssignStmt:
				hit = slices.ContainsFunc(n.Lhs, is)
			case *ast.UnaryExpr:
				hit = n.Op == token.AND && is(n.X)
			}
			done = hit && !yield(c)
			return !done
		})
	}
}

// writesVar returns the first node under root, outside the nodes skip
// tells, that assigns v or takes its address. With aside, only one that
// may set v other than by root's own statements counts: an assignment in
// code that runs later than its place (runsLater), or an address taken
// anywhere (written through later). nil when there is none.
func writesVar(pass *analysis.Pass, root inspector.Cursor, v *types.Var, aside bool, skip func(ast.Node) bool) ast.Node {
	for c := range writesOf(root, func(e ast.Expr) bool { return identOf(pass, e) == v }, skip) {
		if !aside {
			return c.Node()
		}
		if _, ok := c.Node().(*ast.UnaryExpr); ok || runsLater(root, c) {
			return c.Node()
		}
	}
	return nil
}

// runsLater reports whether c is in code of root that runs later than
// its place, or when called: in a deferred statement or a function
// literal below root.
func runsLater(root, c inspector.Cursor) bool {
	for e := range c.Enclosing((*ast.DeferStmt)(nil), (*ast.FuncLit)(nil)) {
		return e != root && root.Contains(e)
	}
	return false
}

// laterCode tells the deferred statements and function literals: code
// that runs after its place, or when called.
func laterCode(n ast.Node) bool {
	switch n.(type) {
	case *ast.DeferStmt, *ast.FuncLit:
		return true
	}
	return false
}

// chainTop climbs from c through the selections, indexes, parentheses
// and dereferences whose operand it is, and returns the outermost one
// (obj.Status.Conditions[0] from obj); keep may stop the climb at a
// selection (a method, not a field).
func chainTop(c inspector.Cursor, keep func(*ast.SelectorExpr) bool) inspector.Cursor {
	for {
		p := c.Parent()
		switch n := p.Node().(type) {
		case *ast.SelectorExpr:
			if n.X != c.Node() || keep != nil && !keep(n) {
				return c
			}
		case *ast.IndexExpr:
			if n.X != c.Node() {
				return c
			}
		case *ast.ParenExpr, *ast.StarExpr:
		default:
			return c
		}
		c = p
	}
}

// pathOf is cur's node and the nodes enclosing it, up to its file: the
// path a site keeps.
func pathOf(cur inspector.Cursor) []ast.Node {
	var path []ast.Node
	for c := range cur.Enclosing() {
		path = append(path, c.Node())
	}
	return path
}

// stackFrom is the path from root down to cur's node, root first.
func stackFrom(root ast.Node, cur inspector.Cursor) []ast.Node {
	var stack []ast.Node
	for c := range cur.Enclosing() {
		stack = append(stack, c.Node())
		if c.Node() == root {
			break
		}
	}
	slices.Reverse(stack)
	return stack
}
