package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

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
	e, hands := errPathOf(r, write)
	if !ok || !hands || !e.exact || len(ret.Results) != len(e.zeros)+1 || !e.fixed() {
		return false
	}
	for i, z := range e.zeros {
		if types.ExprString(z) != types.ExprString(ret.Results[i]) {
			return false
		}
	}
	return e.neverNil(ret, s)
}

// An errPath is how the write's statement hands on the write's error:
// `if err := <write>; err != nil { return <zeros>, err }` or `return
// <zeros>, <write>`.
type errPath struct {
	r     retries
	ret   *ast.ReturnStmt // the return the error goes to
	zeros []ast.Expr      // the values returned with it
	exact bool            // the error is returned unchanged, last
}

// errPathOf finds the write's error path; false when the write's
// statement hands its error to no return of an error.
func errPathOf(r retries, write ast.Stmt) (errPath, bool) {
	e := errPath{r: r}
	var v *types.Var
	switch w := write.(type) {
	case *ast.ReturnStmt:
		if n := len(w.Results); n > 0 && ast.Unparen(w.Results[n-1]) == ast.Expr(r.call) {
			e.ret = w
		}
	case *ast.IfStmt:
		as, ok := w.Init.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 || ast.Unparen(as.Rhs[0]) != ast.Expr(r.call) || w.Else != nil {
			return e, false
		}
		v = identOf(r.pass, as.Lhs[0])
		if v == nil || !isNotNil(r.pass, w.Cond, v) || len(w.Body.List) != 1 {
			return e, false
		}
		if ret, ok := w.Body.List[0].(*ast.ReturnStmt); ok && len(ret.Results) > 0 && isError(r.pass.TypesInfo.TypeOf(ret.Results[len(ret.Results)-1])) {
			e.ret = ret // an error returned, changed or not
		}
	}
	if e.ret == nil {
		return e, false
	}
	last := ast.Unparen(e.ret.Results[len(e.ret.Results)-1])
	e.zeros = e.ret.Results[:len(e.ret.Results)-1]
	e.exact = last == ast.Expr(r.call) || v != nil && identOf(r.pass, last) == v
	return e, true
}

// fixed reports whether the values returned with the error are the same
// wherever they are evaluated (fixedValue).
func (e errPath) fixed() bool {
	return !slices.ContainsFunc(e.zeros, func(z ast.Expr) bool { return !fixedValue(e.r.pass, z) })
}

// isNotNil reports whether cond is `v != nil`.
func isNotNil(pass *analysis.Pass, cond ast.Expr, v *types.Var) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	return ok && b.Op == token.NEQ && v != nil && (isNil(b.Y) && identOf(pass, b.X) == v || isNil(b.X) && identOf(pass, b.Y) == v)
}

// fixedValue reports whether e is the same value wherever it is
// evaluated: no call, and no variable but a struct field's key.
func fixedValue(pass *analysis.Pass, e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr, *ast.FuncLit:
			ok = false
		case *ast.Ident:
			if v, isVar := pass.TypesInfo.Uses[n].(*types.Var); isVar && !v.IsField() {
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
func (e errPath) neverNil(ret *ast.ReturnStmt, s ast.Stmt) bool {
	pass := e.r.pass
	last := ast.Unparen(ret.Results[len(ret.Results)-1])
	if call, ok := last.(*ast.CallExpr); ok {
		fn := kube.CalledFunc(pass, call)
		return fn != nil && fn.Pkg() != nil && (fn.Pkg().Path() == "fmt" && fn.Name() == "Errorf" || fn.Pkg().Path() == "errors" && fn.Name() == "New")
	}
	v := identOf(pass, last)
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
		if i < 0 || !isNotNil(pass, is.Cond, v) {
			return true
		}
		found = true
		for _, b := range is.Body.List[:i] {
			ast.Inspect(b, func(m ast.Node) bool {
				if as, ok := m.(*ast.AssignStmt); ok && slices.ContainsFunc(as.Lhs, func(l ast.Expr) bool { return identOf(pass, l) == v }) {
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
func errExitWhy(r retries, n *ast.ReturnStmt, write ast.Stmt) string {
	e, ok := errPathOf(r, write)
	if !ok {
		return ""
	}
	t := r.text()
	at, results, path := r.where(n.Pos()), exprsText(t, n.Results), exprsText(t, e.ret.Results)
	last := len(n.Results) - 1
	switch {
	case !e.exact:
		return fmt.Sprintf("the return at %s gives %s's result (%s), and the write's error is returned changed (%s at %s), which mutate's return cannot give both", at, r.funcText(), results, path, r.where(e.ret.Pos()))
	case len(n.Results) != len(e.zeros)+1:
		return fmt.Sprintf("the return at %s gives %s's result (%s), which mutate's return cannot", at, r.funcText(), results)
	case isNil(n.Results[last]) || !isError(r.pass.TypesInfo.TypeOf(n.Results[last])):
		return fmt.Sprintf("the return at %s gives %s's result (%s) with no error, which mutate's return cannot", at, r.funcText(), results)
	case exprsText(t, n.Results[:last]) != exprsText(t, e.zeros):
		return fmt.Sprintf("the return at %s gives %s's result (%s), and the write's error other values (%s at %s), which mutate's return cannot give both", at, r.funcText(), results, path, r.where(e.ret.Pos()))
	case e.fixed():
		return fmt.Sprintf("the return at %s returns %s, which may be nil there (mutate's nil would send what the function left unsent)", at, t.source(n.Results[last]))
	}
	return fmt.Sprintf("the return at %s gives %s's result (%s), values a call or a variable gives, which mutate's return cannot", at, r.funcText(), results)
}

// exprsText is es as the file writes them, as a return lists them.
func exprsText(t text, es []ast.Expr) string {
	var out []string
	for _, e := range es {
		out = append(out, t.source(e))
	}
	return strings.Join(out, ", ")
}
