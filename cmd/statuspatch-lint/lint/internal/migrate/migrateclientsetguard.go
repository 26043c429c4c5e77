package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/cfg"
)

// A helper's call whose receiver chain may be nil at the read, an
// optional sub-reconciler (if r.sub != nil { r.sub.reconcile(ctx, d) },
// r.sub set only with a feature gate on), cannot take a patcher made at
// the read: NewDockStatusPatcher(r.sub.c, d) there evaluates r.sub.c
// outside the guard, and panics whenever the guard would have skipped
// the call (review R5 of s105: every reconcile with the gate off). A
// nil check of the chain between the read the patcher is made at and
// the call (around it, or an early return before it) keeps the write,
// naming the check's line. So does any branch between them the call
// does not post-dominate on the function's control-flow graph, when a
// pointer of the chain may be nil: a bool gate set with the
// sub-reconciler, a method that checks it, a switch's case nil (review
// R6 of s106: all three got the patcher at the read).

// clientSetAfterRead is clientSetAt's move of c's anchor past the
// statement that sets the call's client (migrateclientset.go), then why
// the patcher cannot be made at that anchor: the client's chain is
// checked against nil between it and the call, or may be nil and the
// call runs only as a branch between them decides.
func clientSetAfterRead(c *migration, e ast.Expr, rest string, line int) (int, string) {
	setLine, why := clientSetAt(c, e, rest, line)
	if why != "" {
		return setLine, why
	}
	if at, x := nilChecked(c, e); at.IsValid() {
		client := types.ExprString(e) + rest
		return setLine, fmt.Sprintf("its call at line %d names its client %s, and %s is checked against nil at %s, between the read the patcher is made at and the call: made at the read, the patcher would read %s where it may be nil", line, client, x, c.where(at), client)
	}
	// A chain declared after the read is the caller's own reason
	// (declaredBefore, migratehelper.go).
	if link := nilLink(c, e, rest); link != "" && c.declaredBefore(e, c.anchor.Pos()) == "" {
		if cond, at := callCondition(c); at.IsValid() {
			client := types.ExprString(e) + rest
			return setLine, fmt.Sprintf("its call at line %d names its client %s, and runs only as %s at %s decides, after the read the patcher is made at: made there, the patcher would read %s on every path, where %s may be nil", line, client, cond, c.where(at), client, link)
		}
	}
	return setLine, ""
}

// nilLink is the first link of the client's chain e+rest (r.sub of
// r.sub.c) read through a pointer that may be nil: a selector of a
// pointer other than the function's receiver; "" when none is.
func nilLink(c *migration, e ast.Expr, rest string) string {
	info := c.pass.TypesInfo
	isPtr := func(x ast.Expr) bool {
		_, ok := info.TypeOf(x).Underlying().(*types.Pointer)
		return ok
	}
	var links []ast.Expr
	if rest != "" {
		links = append(links, ast.Unparen(e))
	}
	for x := ast.Unparen(e); ; {
		s, ok := x.(*ast.SelectorExpr)
		if !ok {
			break
		}
		x = ast.Unparen(s.X)
		if sel := info.Selections[s]; sel != nil && sel.Kind() == types.FieldVal {
			links = append(links, x)
		}
	}
	recv := receiverOf(c.enclosingFunc(), info)
	for _, n := range c.path {
		// in a function literal, the receiver of the method declaring
		// it (spark-operator's RetryOnConflict literal calling
		// r.updateSparkApplicationStatus)
		if fd, ok := n.(*ast.FuncDecl); ok && recv == nil {
			recv = receiverOf(fd, info)
		}
	}
	for i := len(links) - 1; i >= 0; i-- {
		x := links[i]
		if id, ok := x.(*ast.Ident); ok && recv != nil && info.Uses[id] == recv {
			continue
		}
		if info.TypeOf(x) != nil && isPtr(x) {
			return types.ExprString(x)
		}
	}
	return ""
}

// receiverOf is fn's receiver variable, nil for a function or literal.
func receiverOf(fn ast.Node, info *types.Info) types.Object {
	fd, ok := fn.(*ast.FuncDecl)
	if !ok || fd.Recv == nil || len(fd.Recv.List) == 0 || len(fd.Recv.List[0].Names) == 0 {
		return nil
	}
	return info.Defs[fd.Recv.List[0].Names[0]]
}

// callCondition is the first branch of c's function's control-flow
// graph (go/cfg) between the read the patcher is made at and the call
// that the call does not post-dominate: one of its edges reaches the
// function's end, or the read again, without the call (an if on a bool
// gate or a method, a switch's case, a comma-ok, a loop). It returns
// how the branch reads and its position; NoPos when the call runs on
// every path from the read.
func callCondition(c *migration) (string, token.Pos) {
	var body *ast.BlockStmt
	switch fn := c.enclosingFunc().(type) {
	case *ast.FuncDecl:
		body = fn.Body
	case *ast.FuncLit:
		body = fn.Body
	}
	if body == nil {
		return "", token.NoPos
	}
	from, to := c.anchor.End(), c.call.Pos()
	holds := func(b *cfg.Block, lo, hi token.Pos) bool {
		for _, n := range b.Nodes {
			if n.Pos() < hi && lo < n.End() {
				return true
			}
		}
		return false
	}
	// skips reports whether a path from b reaches the end of the
	// function, or the anchor again, without passing the call.
	skips := func(b *cfg.Block) bool {
		seen := map[*cfg.Block]bool{}
		var walk func(b *cfg.Block) bool
		walk = func(b *cfg.Block) bool {
			if seen[b] || holds(b, c.call.Pos(), c.call.End()) {
				return false
			}
			seen[b] = true
			if len(b.Succs) == 0 || holds(b, c.anchor.Pos(), c.anchor.End()) {
				return true
			}
			if i := errBranch(c.pass.TypesInfo, b); i >= 0 && i < len(b.Succs) {
				return walk(b.Succs[i]) // the path without the error
			}
			return slices.ContainsFunc(b.Succs, walk)
		}
		return walk(b)
	}
	for _, b := range cfg.New(body, mayReturn(c.pass)).Blocks {
		if !b.Live || len(b.Succs) < 2 {
			continue
		}
		var pos token.Pos
		switch {
		case len(b.Nodes) > 0:
			pos = b.Nodes[len(b.Nodes)-1].Pos()
		case b.Stmt != nil:
			pos = b.Stmt.Pos()
		}
		if pos < from || pos >= to || errBranch(c.pass.TypesInfo, b) >= 0 || !slices.ContainsFunc(b.Succs, skips) {
			continue
		}
		return branchText(c, b), pos
	}
	return "", token.NoPos
}

// errBranch is the index of b's successor without the error when b
// ends in an error's comparison with nil (if err != nil { return err }),
// else -1: an error's branch is no gate, as on the path without the
// error the call runs, and a nil chain panics there in the code as
// written.
func errBranch(info *types.Info, b *cfg.Block) int {
	if len(b.Nodes) == 0 || len(b.Succs) != 2 {
		return -1
	}
	e, ok := b.Nodes[len(b.Nodes)-1].(ast.Expr)
	if !ok {
		return -1
	}
	be, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok || be.Op != token.EQL && be.Op != token.NEQ {
		return -1
	}
	errType := types.Universe.Lookup("error").Type().Underlying().(*types.Interface)
	for _, pair := range [][2]ast.Expr{{be.X, be.Y}, {be.Y, be.X}} {
		if t := info.TypeOf(pair[0]); t != nil && predeclaredNil(info, pair[1]) && types.Implements(t, errType) {
			if be.Op == token.NEQ {
				return 1 // if err != nil: its else
			}
			return 0
		}
	}
	return -1
}

// branchText names the branch that ends b: "the condition r.gate",
// "the condition r.sub == nil" for switch r.sub's case nil, "the range
// over items" for a range loop's test.
func branchText(c *migration, b *cfg.Block) string {
	if len(b.Nodes) == 0 {
		if r, ok := b.Stmt.(*ast.RangeStmt); ok {
			return "the range over " + types.ExprString(r.X)
		}
		return "the statement"
	}
	n := b.Nodes[len(b.Nodes)-1]
	e, ok := n.(ast.Expr)
	if !ok {
		return "the statement"
	}
	if cur, ok := c.cursor(e); ok {
		if cc, ok := cur.Parent().Node().(*ast.CaseClause); ok && slices.Contains(cc.List, e) {
			if sw, ok := cur.Parent().Parent().Parent().Node().(*ast.SwitchStmt); ok && sw.Tag != nil {
				return "the condition " + types.ExprString(sw.Tag) + " == " + types.ExprString(e)
			}
		}
	}
	return "the condition " + types.ExprString(e)
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
