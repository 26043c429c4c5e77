package migrate

import (
	"go/ast"
	"go/types"
)

// returnsSuccess: an early "nothing to do" return of the decision,
//
//	if t.Status.ReadyWorkspaces == n {
//		return ctrl.Result{}, nil
//	}
//	t.Status.ReadyWorkspaces = n
//	if err := r.Status().Update(ctx, &t); err != nil {
//		return ctrl.Result{}, fmt.Errorf("summarize %s: %w", t.Name, err)
//	}
//	return ctrl.Result{}, nil
//
// whose values are those the function returns when the write succeeds
// (the write's `return <values>, <write>`, or the return right after its
// statement), each a constant, nil or a literal of them, so that they
// are the same wherever they are evaluated. In mutate it is `return
// nil`: Retry sends nothing and returns nil, and the code after the
// write returns those values, as the early return did.
func returnsSuccess(r retries, n ast.Node, _, write ast.Stmt) bool {
	ret, ok := n.(*ast.ReturnStmt)
	if !ok || len(ret.Results) == 0 {
		return false
	}
	last := len(ret.Results) - 1
	if !isNil(ret.Results[last]) || !isError(resultType(r, last)) {
		return false
	}
	success, ok := successValues(r, write)
	if !ok || len(success) != last {
		return false
	}
	t := r.text()
	for i, e := range ret.Results[:last] {
		if !constLike(r.pass.TypesInfo, e) || t.source(e) != t.source(success[i]) {
			return false
		}
	}
	return true
}

// successValues is what the function returns, but its error, when the
// write's statement succeeds: `return <values>, <write>`, or the return
// `return <values>, nil` right after a statement that does nothing when
// the write returns nil.
func successValues(r retries, write ast.Stmt) ([]ast.Expr, bool) {
	if w, ok := write.(*ast.ReturnStmt); ok {
		k := len(w.Results) - 1
		if k < 0 || ast.Unparen(w.Results[k]) != ast.Expr(r.call) {
			return nil, false
		}
		return w.Results[:k], true
	}
	_, list, at := writeList(r)
	if at < 0 || at+1 >= len(list) || !r.writeSkippable(write) {
		return nil, false
	}
	next, ok := list[at+1].(*ast.ReturnStmt)
	if !ok || len(next.Results) == 0 || !isNil(next.Results[len(next.Results)-1]) {
		return nil, false
	}
	return next.Results[:len(next.Results)-1], true
}

// resultType is the type of the enclosing function's i-th result.
func resultType(r retries, i int) types.Type {
	var sig *types.Signature
	switch f := r.enclosingFunc().(type) {
	case *ast.FuncDecl:
		if fn, ok := r.pass.TypesInfo.Defs[f.Name].(*types.Func); ok {
			sig = fn.Signature()
		}
	case *ast.FuncLit:
		sig, _ = r.pass.TypesInfo.TypeOf(f).(*types.Signature)
	}
	if sig == nil || i >= sig.Results().Len() {
		return nil
	}
	return sig.Results().At(i).Type()
}

// constLike reports whether e has the same value wherever it is
// evaluated: a constant, nil, or a composite literal of such values
// (ctrl.Result{}, ctrl.Result{RequeueAfter: time.Minute}).
func constLike(info *types.Info, e ast.Expr) bool {
	e = ast.Unparen(e)
	if tv, ok := info.Types[e]; ok && (tv.Value != nil || tv.IsNil()) {
		return true
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return false
	}
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			el = kv.Value
		}
		if !constLike(info, el) {
			return false
		}
	}
	return true
}
