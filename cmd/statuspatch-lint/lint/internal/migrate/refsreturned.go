package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// A reference into the object that a function of the package returns is
// followed where the function is called: jobset's
// findFirstFailedPolicyRuleAndJob(ctx, rules, jobs) returns &rule, the
// address of a range copy of js.Spec.FailurePolicy.Rules' element whose
// []string fields share the spec's arrays, and its caller reads .Action
// and hands it on. Its body is followed as before (a parameter's uses:
// followParam, checkFunc); a return of the reference in its own body (not
// a literal's) is recorded with the result it is (returnedBy), and what
// the call gives there is then followed as the reference would be:
// chainChange of the call for one result; for several, each local the
// call defines or sets at a result that carries it (followLocal). A
// result put anywhere else (a field, a package variable), or a reference
// a bare return gives, keeps the write, naming the line.

// returns follows what a function returns, and a reference into the
// object into the function a call runs (followCall).
type returns struct{ *site }

// followCall follows a reference e passed to call (stack[top]) into the
// function it calls, a function of the package or each of the functions
// a function value may be (refsfuncvalue.go), and into what the call
// returns when the function returns it. ok is false when the callee is
// none of these (the caller's reason stands); how says, after "is passed
// to f, ", what may change the object.
func (si returns) followCall(stack []ast.Node, top int, call *ast.CallExpr, e ast.Expr) (how string, ok bool) {
	if how, ok := configs(si).setterHolds(stack, top, call, e); ok {
		return how, true // an apply configuration holds it (readersapplyholder.go)
	}
	if vals, why, isValue := funcVals(si).funcValues(call); isValue {
		return funcVals(si).followValues(stack, top, call, e, vals, why)
	}
	how, ok, ret := si.refs().followParam(call, e)
	if !ok || how != "" || ret == nil || !ret.returned {
		return how, ok
	}
	if w := si.returnedUse(stack, top, si.paramName(call, e), ret.results); w != "" {
		return "where " + w, true
	}
	return "", true
}

// paramName names what e, an argument of call, is in the callee's body,
// for a finding: the parameter's type's "argument N" when it is not
// known here.
func (si returns) paramName(call *ast.CallExpr, e ast.Expr) string {
	if sig, ok := si.pass.TypesInfo.TypeOf(call.Fun).Underlying().(*types.Signature); ok {
		if i := slices.IndexFunc(call.Args, func(a ast.Expr) bool { return a == e }); i >= 0 && i < sig.Params().Len() && sig.Params().At(i).Name() != "" {
			return sig.Params().At(i).Name()
		}
	}
	return types.ExprString(e)
}

// returnedFrom follows what call returns, a reference into name (the
// callee's parameter the object or a reference into it landed in), at
// the results given (-1: a bare return): "" when it is only read, else
// what may change it, starting "what it returns".
func (si returns) returnedFrom(call *ast.CallExpr, name string, results []int) string {
	cur, ok := si.cursor(call)
	if !ok {
		return "it returns a reference into " + name + ", not followed"
	}
	var root ast.Node = si.file
	for c := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		root = c.Node()
		break
	}
	stack := stackFrom(root, cur)
	return si.returnedUse(stack, len(stack)-1, name, results)
}

// returnedUse is returnedFrom of the call stack[top].
func (si returns) returnedUse(stack []ast.Node, top int, name string, results []int) string {
	call := stack[top].(*ast.CallExpr)
	line := si.where(call.Pos())
	tuple, _ := si.pass.TypesInfo.TypeOf(call).(*types.Tuple)
	if tuple == nil {
		switch direct, how := si.refs().chainChange(stack, top); {
		case direct:
			return fmt.Sprintf("what it returns, a reference into %s, is changed at %s", name, line)
		case how != "":
			return fmt.Sprintf("what it returns, a reference into %s, may be changed at %s: %s", name, line, how)
		}
		return ""
	}
	if slices.Contains(results, -1) {
		return fmt.Sprintf("what it returns at %s, a reference into %s, is given by a bare return, which -fix does not follow", line, name)
	}
	lhs := si.tupleTargets(stack[top-1], call, tuple.Len())
	if lhs == nil {
		return fmt.Sprintf("what it returns, a reference into %s, is handed on at %s", name, line)
	}
	for _, i := range results {
		id, ok := ast.Unparen(lhs[i]).(*ast.Ident)
		if ok && id.Name == "_" {
			continue
		}
		v := si.localOf(id)
		if !ok || v == nil {
			return fmt.Sprintf("what it returns, a reference into %s, is assigned to %s at %s, whose uses are not followed", name, types.ExprString(lhs[i]), line)
		}
		if how := si.refs().followLocal(v); how != "" {
			return fmt.Sprintf("what it returns, a reference into %s, is assigned to %s at %s, %s", name, v.Name(), line, how)
		}
	}
	return ""
}

// tupleTargets are the places a call of n results is assigned to, when
// p, its parent, is a, b := call, a, b = call or var a, b = call; nil
// otherwise.
func (si returns) tupleTargets(p ast.Node, call *ast.CallExpr, n int) []ast.Expr {
	switch p := p.(type) {
	case *ast.AssignStmt:
		if (p.Tok == token.DEFINE || p.Tok == token.ASSIGN) && len(p.Rhs) == 1 && p.Rhs[0] == ast.Expr(call) && len(p.Lhs) == n {
			return p.Lhs
		}
	case *ast.ValueSpec:
		if len(p.Values) == 1 && p.Values[0] == ast.Expr(call) && len(p.Names) == n {
			lhs := make([]ast.Expr, n)
			for i, id := range p.Names {
				lhs[i] = id
			}
			return lhs
		}
	}
	return nil
}

// localOf is the local variable id defines or names: not a package
// variable, a field, or a named result (which a bare return hands on).
func (si returns) localOf(id *ast.Ident) *types.Var {
	if id == nil {
		return nil
	}
	v, _ := si.pass.TypesInfo.ObjectOf(id).(*types.Var)
	if v == nil || v.IsField() || v.Parent() == nil || v.Parent() == si.pass.Pkg.Scope() || si.refs().namedResult(v) {
		return nil
	}
	return v
}

// checkParam checks the uses of p, the parameter of a function of the
// package (its body) that call gives the object, and what call returns
// when the function returns a reference into it (checkFunc, and a
// function value's: refsfuncvalue.go).
func (m checks) checkParam(call *ast.CallExpr, p *types.Var, body *ast.BlockStmt, depth int) (bool, string) {
	outer := m.returning
	m.returning = &returning{body: body}
	why := m.checkUses(body, p, body.Pos(), body.End(), depth+1)
	ret := m.returning
	m.returning = outer
	if why == "" && ret.returned {
		// jobset's managedByExternalController returns js.Spec.ManagedBy,
		// which its caller compares with nil and logs.
		why = returns(m.refs()).returnedFrom(call, p.Name(), ret.results)
	}
	return why == "", why
}
