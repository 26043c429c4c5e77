package migrate

import (
	"go/ast"
	"go/token"
	"slices"

	"golang.org/x/tools/go/ast/inspector"
)

// A status read the decision cannot depend on (issue 80: kubebuilder's
// tutorial). The deploy-image Reconcile reads the object, sets a
// condition Unknown when the status has none, writes it and reads the
// object again (`if len(obj.Status.Conditions) == 0 { ...;
// Status().Update(ctx, obj); Get(ctx, key, obj) }`), and handles a
// deletion in a branch that always returns. Neither read decides whether
// or how a later decision runs: the branch that returns never reaches
// it, and the if that ends in a write or a re-read reaches it either way,
// with the object as the server holds it or as first read and untouched.
// Such a read does not keep that decision out of Retry's function
// (headRead's window, migrateretryhead.go); before, the token the
// tutorial's last write hands out stayed outside Retry, and a 409 left
// it to the next reconcile to hand out again.

// sealedRead reports whether the status read whose ancestors are stack
// (root first) cannot reach the decision starting at start: it lies in
// an if's or case's body that ends in a return with no jump out of it,
// or in an if that reaches start on every path with nothing of its own
// carried there (readSealedIf).
func sealedRead(r retries, stack []ast.Node, start token.Pos) bool {
	for i, n := range stack {
		if n.Pos() <= start && start < n.End() {
			continue // the decision is inside n
		}
		switch n := n.(type) {
		case *ast.IfStmt:
			if i+1 < len(stack) && (stack[i+1] == n.Body || stack[i+1] == n.Else) {
				if b, ok := stack[i+1].(*ast.BlockStmt); ok && terminates(b) { // migratefetch.go
					return true
				}
			}
			if readSealedIf(r, n) {
				return true
			}
		case *ast.CaseClause:
			body, ok := stack[min(i+1, len(stack)-1)].(ast.Stmt)
			if ok && slices.Contains(n.Body, body) && terminates(&ast.BlockStmt{List: n.Body}) {
				return true
			}
		}
	}
	return false
}

// readSealedIf reports whether is, without an else, falls through on
// every path that does not return an error, and ends its body in a Get of
// the object or a locked write of it (lockedWrite), after which the
// object is what the server holds; and assigns nothing declared outside
// it but the object, nor takes such a variable's address: what it read
// goes nowhere after it.
func readSealedIf(r retries, is *ast.IfStmt) bool {
	if is.Else != nil || len(is.Body.List) == 0 || jumpsOut(is.Body, false, false) {
		return false
	}
	if as, ok := is.Init.(*ast.AssignStmt); is.Init != nil && (!ok || as.Tok != token.DEFINE) {
		return false
	}
	last := is.Body.List[len(is.Body.List)-1]
	if !r.reads().isGetStmt(last) && !lockedWrite(r, last) {
		return false
	}
	cur, ok := r.cursor(is)
	if !ok {
		return false
	}
	outer := func(e ast.Expr) bool {
		v := rootVar(r.pass.TypesInfo, e)
		return v != nil && v != r.obj && (v.Pos() < is.Pos() || v.Pos() >= is.End())
	}
	skip := func(n ast.Node) bool { _, ok := n.(*ast.FuncLit); return ok }
	for range writesOf(cur, outer, skip) { // cursor.go
		return false
	}
	return errReturnsOnly(r, cur)
}

// errReturnsOnly reports whether every return under cur, outside
// function literals, is in the body of an if whose condition is `err !=
// nil` for a variable err of type error: the if's only exits are its
// calls' failures.
func errReturnsOnly(r retries, cur inspector.Cursor) bool {
	ok := true
	cur.Inspect([]ast.Node{(*ast.FuncLit)(nil), (*ast.ReturnStmt)(nil)}, func(c inspector.Cursor) bool {
		if _, lit := c.Node().(*ast.FuncLit); lit || !ok {
			return false
		}
		ok = errChecked(r, c)
		return false
	})
	return ok
}

// errChecked reports whether the return at c is directly in the body of
// an if checking an error variable against nil.
func errChecked(r retries, c inspector.Cursor) bool {
	block := c.Parent()
	is, ok := block.Parent().Node().(*ast.IfStmt)
	if !ok || is.Body != block.Node() {
		return false
	}
	b, ok := ast.Unparen(is.Cond).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	v := identOf(r.pass, b.X)
	return v != nil && isNotNil(r.pass, is.Cond, v) && isError(v.Type()) // migrateretryerr.go, migrateretryexit.go
}
