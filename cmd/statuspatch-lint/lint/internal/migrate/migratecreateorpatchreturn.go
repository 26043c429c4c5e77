package migrate

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// returnIn is the first return of the mutate in s, outside function
// literals, that may return nil. A return of an error never nil
// (errReturn) makes CreateOrPatch return it, and the Retry's guard (err
// == nil) skips the moved statements, as the mutate did: the same
// decision.
func (ms *mutateStmts) returnIn(s ast.Stmt) *ast.ReturnStmt {
	var ret *ast.ReturnStmt
	ast.Inspect(s, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if !ms.errReturn(s, x) {
				ret = x
			}
		}
		return ret == nil
	})
	return ret
}

// errReturn reports whether ret, in s, returns an error never nil: a
// call of fmt.Errorf or errors.New, or v as a statement of the body of
// if v != nil { ... }, v not set before it there.
func (ms *mutateStmts) errReturn(s ast.Stmt, ret *ast.ReturnStmt) bool {
	info := ms.cs.pass.TypesInfo
	if len(ret.Results) != 1 {
		return false
	}
	if call, ok := ast.Unparen(ret.Results[0]).(*ast.CallExpr); ok {
		f := calleeFunc(info, call)
		return f != nil && f.Pkg() != nil && (f.Pkg().Path() == "fmt" && f.Name() == "Errorf" || f.Pkg().Path() == "errors" && f.Name() == "New")
	}
	id, ok := ast.Unparen(ret.Results[0]).(*ast.Ident)
	v, _ := info.Uses[id].(*types.Var)
	if !ok || v == nil {
		return false
	}
	is := func(e ast.Expr) bool { return rootVar(info, e) == v }
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		ifs, ok := n.(*ast.IfStmt)
		if !ok || found {
			return !found
		}
		k := slices.Index(ifs.Body.List, ast.Stmt(ret))
		b, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
		if k < 0 || !ok || b.Op != token.NEQ {
			return true
		}
		x, y := ast.Unparen(b.X), ast.Unparen(b.Y)
		if !info.Types[y].IsNil() {
			x, y = y, x
		}
		if !info.Types[y].IsNil() || !is(x) {
			return true
		}
		for _, st := range ifs.Body.List[:k] {
			for range writesOf(mustCursor(ms.cs, st), is, nil) {
				return true
			}
		}
		found = true
		return false
	})
	return found
}
