package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// A call through a function value is followed into each function the
// value may be, when they are all known: jobset's
// applyFailurePolicyRuleAction looks its applier up in actionFunctionMap
// (applier, ok := actionFunctionMap[action]) and calls it with the object
// and the rule; each applier is a function literal in a package variable
// (failJobSetActionApplier) that changes the status and reads rule.Name.
//
// The value called is a package variable of function type, an index of a
// package variable of map, slice or array type, or a local defined once
// from either and never set again (a range over a container, and a local
// container: refsfuncvaluerange.go). Such a variable must be unexported (no other package
// sets it), and no use of it in the package may set it: a function
// variable is never assigned, nor its address taken; a map is only
// indexed to be read, ranged over, measured or compared. Its values are
// then those of its declaration: a function of the package, a function
// literal, or another such variable. Each is checked as a function of the
// package given the object (checkFunc's rules) or a reference into it
// (followParam's), and the call keeps the write when one may change it,
// naming which. A value of another package, a map set elsewhere (in an
// init), or any other value keeps the write, saying so. A _test.go file
// of the package is not looked at, whether the package is loaded with its
// tests or not: what a test sets runs only in the package's test binary,
// never where the write runs.

// funcVals resolves function values (above).
type funcVals struct{ *site }

// funcValue is one function a function value may be: a function of the
// package, or a literal; name says which for a finding.
type funcValue struct {
	name string
	fn   *types.Func
	lit  *ast.FuncLit
}

// funcValues resolves the function call calls when it names no function
// or method: isValue is false when it is none of the forms above (the
// caller's reason stands); why says why its values are not all known.
func (si funcVals) funcValues(call *ast.CallExpr) (vals []funcValue, why string, isValue bool) {
	if fnOf(si.pass.TypesInfo, call.Fun) {
		return nil, "", false
	}
	fun := ast.Unparen(call.Fun)
	if !valueForm(fun) {
		return nil, "", false // a field's, a call's: not followed
	}
	if id, ok := fun.(*ast.Ident); ok {
		v, _ := si.pass.TypesInfo.Uses[id].(*types.Var)
		if v == nil || v.IsField() {
			return nil, "", false
		}
		if v.Parent() != si.pass.Pkg.Scope() {
			if c, why, ok := si.rangedValue(v); ok {
				if why != "" {
					return nil, why, true
				}
				return si.containerValues(c) // refsfuncvaluerange.go
			}
			x, why, ok := si.localValue(v, nil)
			if !ok {
				return nil, "", false
			}
			if why != "" {
				return nil, why, true
			}
			if !valueForm(x) {
				return nil, "", false
			}
			fun = x
		}
	}
	return si.valuesOf(fun, nil)
}

// valueForm reports whether x is a form funcValues resolves: a name, a
// function literal, or an index of a name.
func valueForm(x ast.Expr) bool {
	switch x := ast.Unparen(x).(type) {
	case *ast.Ident, *ast.FuncLit:
		return true
	case *ast.IndexExpr:
		_, ok := ast.Unparen(x.X).(*ast.Ident)
		return ok
	}
	return false
}

// fnOf reports whether fun, called or handed on, names a function or
// method (kube.CalledFunc's callees), or a builtin or a conversion.
func fnOf(info *types.Info, fun ast.Expr) bool {
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		_, isVar := info.Uses[f].(*types.Var)
		return !isVar
	case *ast.SelectorExpr:
		if s := info.Selections[f]; s != nil {
			return s.Kind() != types.FieldVal
		}
		_, isVar := info.Uses[f.Sel].(*types.Var)
		return !isVar
	}
	return info.Types[fun].IsType()
}

// localValue is the value the local v is defined with (v := x, v, ok :=
// m[k], var v = x), when no other statement sets it (but those skip
// tells); why says where one does.
func (si funcVals) localValue(v *types.Var, skip func(ast.Node) bool) (x ast.Expr, why string, ok bool) {
	if _, ok := si.cursor(si.pass.Files[0]); !ok {
		return nil, "", false
	}
	c, ok := si.insp.Root().FindByPos(v.Pos(), v.Pos()+token.Pos(len(v.Name())))
	if !ok {
		return nil, "", false
	}
	def, isID := c.Node().(*ast.Ident)
	if !isID {
		return nil, "", false
	}
	switch p := c.Parent().Node().(type) {
	case *ast.AssignStmt:
		i := slices.IndexFunc(p.Lhs, func(e ast.Expr) bool { return ast.Node(e) == def })
		switch {
		case p.Tok != token.DEFINE || i < 0:
			return nil, "", false
		case len(p.Lhs) == len(p.Rhs):
			x = p.Rhs[i]
		case len(p.Rhs) == 1 && len(p.Lhs) == 2 && i == 0:
			x = p.Rhs[0] // v, ok := m[k]
		}
	case *ast.ValueSpec:
		i := slices.IndexFunc(p.Names, func(n *ast.Ident) bool { return ast.Node(n) == def })
		if i >= 0 && len(p.Names) == len(p.Values) {
			x = p.Values[i]
		}
	}
	if x == nil {
		return nil, "", false
	}
	fn := enclosingFn(c)
	if fn.Node() == nil {
		return nil, "", false
	}
	for w := range writesOf(fn, func(e ast.Expr) bool { return identOf(si.pass, e) == v }, skip) {
		if w.Node() != c.Parent().Node() {
			return nil, fmt.Sprintf("%s is set again at %s", v.Name(), si.where(w.Node().Pos())), true
		}
	}
	return ast.Unparen(x), "", true
}

// valuesOf is the functions x may be: a function of the package, a
// literal, a package variable of function type, or an index of one of
// map type (seen: the variables being resolved).
func (si funcVals) valuesOf(x ast.Expr, seen []*types.Var) (vals []funcValue, why string, isValue bool) {
	x = ast.Unparen(x)
	if ix, ok := x.(*ast.IndexExpr); ok {
		id, ok := ast.Unparen(ix.X).(*ast.Ident)
		if !ok {
			return nil, "", false
		}
		m, _ := si.pass.TypesInfo.Uses[id].(*types.Var)
		if m == nil || m.IsField() || !container(m.Type()) {
			return nil, "", false
		}
		if m.Parent() != si.pass.Pkg.Scope() {
			return si.containerValues(id)
		}
		return si.varValues(m, seen)
	}
	switch x := x.(type) {
	case *ast.FuncLit:
		return []funcValue{{name: "the function literal at " + si.where(x.Pos()), lit: x}}, "", true
	case *ast.SelectorExpr:
		// A method value of the package (r.open): its method's body,
		// given the call's arguments; the receiver is not the object.
		if s := si.pass.TypesInfo.Selections[x]; s != nil && s.Kind() == types.MethodVal && !types.IsInterface(s.Recv()) {
			if fn, ok := s.Obj().(*types.Func); ok && fn.Pkg() == si.pass.Pkg {
				return []funcValue{{name: funcName(fn, si.pass.Pkg), fn: fn}}, "", true
			}
		}
	case *ast.Ident:
		switch o := si.pass.TypesInfo.Uses[x].(type) {
		case *types.Func:
			if o.Pkg() == si.pass.Pkg {
				return []funcValue{{name: funcName(o, si.pass.Pkg), fn: o}}, "", true
			}
		case *types.Var:
			if o.Parent() == si.pass.Pkg.Scope() {
				if _, ok := o.Type().Underlying().(*types.Signature); ok {
					return si.varValues(o, seen)
				}
			}
			return nil, "", false
		}
	}
	return nil, fmt.Sprintf("it may be %s, not a function of the package", types.ExprString(x)), true
}

// varValues is the functions the package variable v holds (of function
// type) or holds as values (a map), by the rules above.
func (si funcVals) varValues(v *types.Var, seen []*types.Var) (vals []funcValue, why string, isValue bool) {
	if slices.Contains(seen, v) {
		return nil, "", true
	}
	seen = append(seen, v)
	if v.Exported() {
		return nil, fmt.Sprintf("%s is exported: another package may set it", v.Name()), true
	}
	isMap := container(v.Type()) // a map, slice or array: its elements
	var init ast.Expr
	for _, f := range si.pass.Files {
		if testFile(si.pass, f) {
			continue // compiled only into the test binary: its values never run where the write does
		}
		why = si.eachUse(f, v, f.FileStart, f.FileEnd, func(stack []ast.Node, id *ast.Ident) string {
			if varSet(stack, isMap) {
				return fmt.Sprintf("%s is set at %s", v.Name(), si.where(id.Pos()))
			}
			if isMap && !mapRead(si.pass.TypesInfo, stack) {
				return fmt.Sprintf("%s is handed on at %s", v.Name(), si.where(id.Pos()))
			}
			return ""
		})
		if why != "" {
			return nil, why, true
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				i := slices.IndexFunc(vs.Names, func(n *ast.Ident) bool { return si.pass.TypesInfo.Defs[n] == v })
				if i >= 0 && len(vs.Values) == len(vs.Names) {
					init = vs.Values[i]
				} else if i >= 0 && len(vs.Values) > 0 {
					return nil, fmt.Sprintf("%s is declared with a call's results", v.Name()), true
				}
			}
		}
	}
	if init == nil {
		return nil, fmt.Sprintf("%s has no value where it is declared: it is set where -fix does not look", v.Name()), true
	}
	var elems []ast.Expr
	if !isMap {
		elems = []ast.Expr{init}
	} else if lit, ok := ast.Unparen(init).(*ast.CompositeLit); ok {
		for _, e := range lit.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				e = kv.Value
			}
			elems = append(elems, e)
		}
	} else {
		return nil, fmt.Sprintf("%s is declared with %s, not a literal", v.Name(), types.ExprString(init)), true
	}
	for _, e := range elems {
		vs, why, ok := si.valuesOf(e, seen)
		if !ok && why == "" {
			why = fmt.Sprintf("it may be %s, not a function of the package", types.ExprString(e))
		}
		if why != "" {
			return nil, fmt.Sprintf("%s, a value of %s", why, v.Name()), true
		}
		for _, x := range vs {
			if x.lit != nil && !isMap {
				x.name = v.Name()
			} else if x.lit != nil && ast.Unparen(e) == ast.Expr(x.lit) {
				x.name = fmt.Sprintf("the function literal of %s at %s", v.Name(), si.where(x.lit.Pos()))
			}
			vals = append(vals, x)
		}
	}
	return vals, "", true
}

// varSet reports whether the use of a variable at the end of stack may
// set it: assigned, incremented, its address taken, or (a map) an
// element of it assigned or deleted... deleting only removes: allowed.
func varSet(stack []ast.Node, isMap bool) bool {
	i := len(stack) - 1
	if isMap {
		if ix, ok := stack[i-1].(*ast.IndexExpr); ok && ix.X == stack[i] {
			i--
		}
	}
	switch p := stack[i-1].(type) {
	case *ast.AssignStmt:
		return isLHS(p, stack[i])
	case *ast.IncDecStmt:
		return true
	case *ast.UnaryExpr:
		return p.Op == token.AND
	}
	return false
}

// mapRead reports whether the use of a map variable at the end of stack
// only reads it: indexed, ranged over, measured or compared.
func mapRead(info *types.Info, stack []ast.Node) bool {
	i := len(stack) - 1
	switch p := stack[i-1].(type) {
	case *ast.IndexExpr:
		return p.X == stack[i]
	case *ast.RangeStmt:
		return p.X == stack[i]
	case *ast.BinaryExpr:
		return true
	case *ast.CallExpr:
		if id, ok := ast.Unparen(p.Fun).(*ast.Ident); ok {
			b, ok := info.Uses[id].(*types.Builtin)
			return ok && b.Name() == "len"
		}
	case *ast.ValueSpec:
		return slices.ContainsFunc(p.Names, func(n *ast.Ident) bool { return ast.Node(n) == stack[i] })
	}
	return false
}
