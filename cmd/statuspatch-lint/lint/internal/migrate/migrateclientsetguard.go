package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// A helper's call whose receiver chain may be nil at the read, an
// optional sub-reconciler (if r.sub != nil { r.sub.reconcile(ctx, d) },
// r.sub set only with a feature gate on), cannot take a patcher made at
// the read: NewDockStatusPatcher(r.sub.c, d) there evaluates r.sub.c
// outside the guard, and panics whenever the guard would have skipped
// the call (review R5 of s105: every reconcile with the gate off). A
// nil check of the chain between the read the patcher is made at and
// the call (around it, or an early return before it) keeps the write,
// naming the check's line.

// clientSetAfterRead is clientSetAt's move of c's anchor past the
// statement that sets the call's client (migrateclientset.go), then why
// the patcher cannot be made at that anchor: the client's chain is
// checked against nil between it and the call.
func clientSetAfterRead(c *migration, e ast.Expr, rest string, line int) (int, string) {
	setLine, why := clientSetAt(c, e, rest, line)
	if why != "" {
		return setLine, why
	}
	if at, x := nilChecked(c, e); at.IsValid() {
		client := types.ExprString(e) + rest
		return setLine, fmt.Sprintf("its call at line %d names its client %s, and %s is checked against nil at %s, between the read the patcher is made at and the call: made at the read, the patcher would read %s where it may be nil", line, client, x, c.where(at), client)
	}
	return setLine, ""
}

// nilChecked is the first comparison with nil of e or a selector e is
// reached through (r.sub of r.sub.c), in c's function between its anchor
// and its call, and the text compared; NoPos when there is none.
func nilChecked(c *migration, e ast.Expr) (token.Pos, string) {
	chain := map[string]bool{}
	for x := ast.Unparen(e); x != nil; {
		switch s := x.(type) {
		case *ast.SelectorExpr:
			chain[types.ExprString(s)] = true
			x = ast.Unparen(s.X)
		case *ast.StarExpr:
			x = ast.Unparen(s.X)
		case *ast.IndexExpr:
			chain[types.ExprString(s)] = true
			x = ast.Unparen(s.X)
		default:
			x = nil
		}
	}
	root, ok := c.cursor(c.enclosingFunc())
	if !ok || len(chain) == 0 {
		return token.NoPos, ""
	}
	from, to := c.anchor.End(), c.call.Pos()
	for cur := range root.Preorder((*ast.BinaryExpr)(nil)) {
		b := cur.Node().(*ast.BinaryExpr)
		if b.Pos() < from || b.End() > to || b.Op != token.EQL && b.Op != token.NEQ {
			continue
		}
		for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
			if predeclaredNil(c.pass.TypesInfo, pair[1]) && chain[types.ExprString(ast.Unparen(pair[0]))] {
				return b.Pos(), types.ExprString(ast.Unparen(pair[0]))
			}
		}
	}
	return token.NoPos, ""
}

// predeclaredNil reports whether e is the predeclared nil (not a
// variable named nil).
func predeclaredNil(info *types.Info, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	_, isNil := info.Uses[id].(*types.Nil)
	return isNil
}
