package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
)

// The functions a function value may be (refsfuncvalue.go), followed:
// a reference given to each (followValues), or the object (checkValues).

// followValues is followCall of a function value: e followed into each
// function it may be (intoFunc), and into what the call returns.
func (si funcVals) followValues(stack []ast.Node, top int, call *ast.CallExpr, e ast.Expr, vals []funcValue, why string) (string, bool) {
	if why != "" {
		return "whose values are not all known: " + why, true
	}
	if call.Ellipsis.IsValid() {
		return "", false
	}
	for _, v := range vals {
		ft, body, variadic := si.valueFunc(v)
		if body == nil {
			return fmt.Sprintf("which may be %s, whose body -fix does not have", v.name), true
		}
		how, ok, ret := returns(si).intoFunc(call, e, ft, body, variadic)
		if !ok {
			return fmt.Sprintf("which may be %s, whose parameter -fix does not follow", v.name), true
		}
		if how == "" && ret != nil && ret.returned {
			if w := returns(si).returnedUse(stack, top, returns(si).paramName(call, e), ret.results); w != "" {
				how = "where " + w
			}
		}
		if how != "" {
			return fmt.Sprintf("which may be %s, %s", v.name, how), true
		}
	}
	return "", true
}

// valueFunc is the type and body of the function v.
func (si funcVals) valueFunc(v funcValue) (*ast.FuncType, *ast.BlockStmt, bool) {
	if v.lit != nil {
		sig, _ := si.pass.TypesInfo.TypeOf(v.lit).(*types.Signature)
		return v.lit.Type, v.lit.Body, sig != nil && sig.Variadic()
	}
	fd := si.funcDecl(v.fn)
	if fd == nil {
		return nil, nil, false
	}
	return fd.Type, fd.Body, v.fn.Signature().Variadic()
}

// checkValues is checkCallee of a call through a function value: the
// object id given to each function it may be, by checkFunc's rules.
func (m checks) checkValues(call *ast.CallExpr, id ast.Expr, depth int) (ok bool, why string) {
	vals, why, isValue := funcVals(m.refs()).funcValues(call)
	switch {
	case !isValue:
		return false, ""
	case why != "":
		return false, "its values are not all known: " + why
	case call.Ellipsis.IsValid():
		return false, ""
	}
	arg := slices.IndexFunc(call.Args, func(a ast.Expr) bool { return a == id })
	for _, v := range vals {
		if v.fn != nil {
			if ok, why := m.checkFunc(call, v.fn, arg, false, depth); !ok {
				return false, m.valueWhy(v, why)
			}
			continue
		}
		if slices.Contains(m.litsFollowing, v.lit) {
			continue // a recursive call: its uses are the ones being checked
		}
		if depth >= maxCalleeDepth {
			return false, fmt.Sprintf("the calls go on deeper than %d functions of the package, which -fix does not follow", maxCalleeDepth)
		}
		params := paramIdents(v.lit.Type)
		sig, _ := m.pass.TypesInfo.TypeOf(v.lit).(*types.Signature)
		if arg < 0 || arg >= len(params) || sig == nil || sig.Variadic() && arg >= len(params)-1 {
			return false, ""
		}
		if params[arg] == nil || params[arg].Name == "_" {
			continue
		}
		p, _ := m.pass.TypesInfo.Defs[params[arg]].(*types.Var)
		if p == nil {
			return false, ""
		}
		m.litsFollowing = append(m.litsFollowing, v.lit)
		ok, why := m.checkParam(call, p, v.lit.Body, depth)
		m.litsFollowing = m.litsFollowing[:len(m.litsFollowing)-1]
		if !ok {
			return false, m.valueWhy(v, why)
		}
	}
	return true, ""
}

// valueWhy says which function a value may be blocks, and what it does.
func (m checks) valueWhy(v funcValue, why string) string {
	if why == "" {
		return fmt.Sprintf("it may be %s, which -fix does not follow with it", v.name)
	}
	return fmt.Sprintf("it may be %s, where %s", v.name, why)
}

// paramIdents are ft's parameters in order, nil for an unnamed one (a
// field without names is one parameter).
func paramIdents(ft *ast.FuncType) []*ast.Ident {
	var out []*ast.Ident
	for _, f := range ft.Params.List {
		if len(f.Names) == 0 {
			out = append(out, nil)
		}
		out = append(out, f.Names...)
	}
	return out
}
