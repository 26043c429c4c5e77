package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// An error exit of a decision (issue 80: the most common blocker of a
// move into Retry). `if err := compute(obj); err != nil { return
// ctrl.Result{}, err }` before a write whose own error is handled as
// `if err := <write>; err != nil { return ctrl.Result{}, err }` (or
// `return ctrl.Result{}, <write>`): the function returns the same values
// whether the decision or the write failed. In Retry's mutate the exit
// is `return err`: Retry restores the object, sends nothing and returns
// that error unchanged (patcher/retry.go), and the write's error path
// returns it as before. An exit returning other values than the write's
// error path (`return ctrl.Result{Requeue: true}, nil`), or an error
// that may be nil there, stays, named (errExitWhy).

// returnsErr: n returns the write's error path's values, its error one
// that is not nil there (neverNil).
func returnsErr(r retries, n ast.Node, s, write ast.Stmt) bool {
	ret, ok := n.(*ast.ReturnStmt)
	if !ok || len(ret.Results) == 0 {
		return false
	}
	zeros, _, ok := r.writeErrReturn(write)
	if !ok || len(zeros) != len(ret.Results)-1 {
		return false
	}
	for i, z := range zeros {
		if types.ExprString(z) != types.ExprString(ret.Results[i]) || !r.fixedValue(z) {
			return false
		}
	}
	return r.neverNil(ret, s)
}

// writeErrReturn is the values the write's statement returns with its
// error, that error last and unchanged: `if err := <write>; err != nil {
// return <zeros>, err }` or `return <zeros>, <write>`; ok false when it
// is not so (errReturn: the return, where the error is returned changed).
func (r retries) writeErrReturn(write ast.Stmt) ([]ast.Expr, *ast.ReturnStmt, bool) {
	ret, v := r.errReturn(write)
	if ret == nil {
		return nil, nil, false
	}
	last := ast.Unparen(ret.Results[len(ret.Results)-1])
	if last != ast.Expr(r.call) && (v == nil || identOf(r.pass, last) != v) {
		return nil, ret, false
	}
	return ret.Results[:len(ret.Results)-1], ret, true
}

// errReturn is the return the write's statement hands the write's error
// to, and the error's variable: `if err := <write>; err != nil { return
// ... }`, or `return ..., <write>` (no variable).
func (r retries) errReturn(write ast.Stmt) (*ast.ReturnStmt, *types.Var) {
	switch w := write.(type) {
	case *ast.ReturnStmt:
		if n := len(w.Results); n > 0 && ast.Unparen(w.Results[n-1]) == ast.Expr(r.call) {
			return w, nil
		}
	case *ast.IfStmt:
		as, ok := w.Init.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 || ast.Unparen(as.Rhs[0]) != ast.Expr(r.call) || w.Else != nil {
			return nil, nil
		}
		v := identOf(r.pass, as.Lhs[0])
		if v == nil || !r.isNotNil(w.Cond, v) || len(w.Body.List) != 1 {
			return nil, nil
		}
		if ret, ok := w.Body.List[0].(*ast.ReturnStmt); ok && len(ret.Results) > 0 && isError(r.pass.TypesInfo.TypeOf(ret.Results[len(ret.Results)-1])) {
			return ret, v // an error returned, changed or not
		}
	}
	return nil, nil
}

// isNotNil reports whether cond is `v != nil`.
func (r retries) isNotNil(cond ast.Expr, v *types.Var) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	return ok && b.Op == token.NEQ && isNil(b.Y) && identOf(r.pass, b.X) == v
}

// fixedValue reports whether e is the same value wherever it is
// evaluated: no call, and no variable but a struct field's key.
func (r retries) fixedValue(e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr, *ast.FuncLit:
			ok = false
		case *ast.Ident:
			if v, isVar := r.pass.TypesInfo.Uses[n].(*types.Var); isVar && !v.IsField() {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// neverNil reports whether ret's error is not nil where it is returned:
// the variable an if around it, in s, checks `!= nil`, unchanged in the
// if's body before it, or fmt.Errorf or errors.New. A nil there would be
// mutate's nil, after which Retry sends what the handwritten code left
// unsent.
func (r retries) neverNil(ret *ast.ReturnStmt, s ast.Stmt) bool {
	last := ast.Unparen(ret.Results[len(ret.Results)-1])
	if call, ok := last.(*ast.CallExpr); ok {
		fn := kube.CalledFunc(r.pass, call)
		return fn != nil && fn.Pkg() != nil && (fn.Pkg().Path() == "fmt" && fn.Name() == "Errorf" || fn.Pkg().Path() == "errors" && fn.Name() == "New")
	}
	v := identOf(r.pass, last)
	if v == nil || !isError(v.Type()) {
		return false
	}
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		is, ok := n.(*ast.IfStmt)
		if found || !ok {
			return !found
		}
		i := slices.Index(is.Body.List, ast.Stmt(ret))
		if i < 0 || !r.isNotNil(is.Cond, v) {
			return true
		}
		found = true
		for _, b := range is.Body.List[:i] {
			ast.Inspect(b, func(m ast.Node) bool {
				if as, ok := m.(*ast.AssignStmt); ok && slices.ContainsFunc(as.Lhs, func(l ast.Expr) bool { return identOf(r.pass, l) == v }) {
					found = false
				}
				return found
			})
		}
		return false
	})
	return found
}

// errExitWhy says why the return n of a decision cannot be mutate's
// return, when the write hands its error to a return of the function
// ("" when it does not: stopWhy's words).
func (r retries) errExitWhy(n *ast.ReturnStmt, write ast.Stmt) string {
	zeros, ret, ok := r.writeErrReturn(write)
	if ret == nil {
		return ""
	}
	at, results := r.where(n.Pos()), r.exprsText(n.Results)
	last := len(n.Results) - 1
	switch {
	case !ok:
		return fmt.Sprintf("the return at %s gives %s's result (%s), and the write's error is returned changed (%s at %s), which mutate's return cannot give both", at, r.funcText(), results, r.exprsText(ret.Results), r.where(ret.Pos()))
	case len(n.Results) != len(zeros)+1:
		return fmt.Sprintf("the return at %s gives %s's result (%s), which mutate's return cannot", at, r.funcText(), results)
	case isNil(n.Results[last]) || !isError(r.pass.TypesInfo.TypeOf(n.Results[last])):
		return fmt.Sprintf("the return at %s gives %s's result (%s) with no error, which mutate's return cannot", at, r.funcText(), results)
	case r.exprsText(n.Results[:last]) != r.exprsText(zeros):
		return fmt.Sprintf("the return at %s gives %s's result (%s), and the write's error other values (%s at %s), which mutate's return cannot give both", at, r.funcText(), results, r.exprsText(ret.Results), r.where(ret.Pos()))
	case !slices.ContainsFunc(zeros, func(z ast.Expr) bool { return !r.fixedValue(z) }):
		return fmt.Sprintf("the return at %s returns %s, which may be nil there (mutate's nil would send what the function left unsent)", at, r.text().source(n.Results[last]))
	}
	return fmt.Sprintf("the return at %s gives %s's result (%s), values a call or a variable gives, which mutate's return cannot", at, r.funcText(), results)
}

// exprsText is es as the file writes them, as a return lists them.
func (r retries) exprsText(es []ast.Expr) string {
	var out []string
	for _, e := range es {
		out = append(out, r.text().source(e))
	}
	return strings.Join(out, ", ")
}
