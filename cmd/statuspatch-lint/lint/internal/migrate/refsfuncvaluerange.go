package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// A slice or array of functions of the package is followed as a map of
// them is (refsfuncvalue.go): spark-operator's buildStartConnectServerArgs
// ranges over a local literal of nine option functions
// (optionFuncs := []sparkConnectOptionFunc{masterOption, ...}) and calls
// each with the object. The value called is a local a range over the
// container defines (for _, f := range fs), never set again, or an index
// of it; the container a package variable (varValues' rules) or a local
// defined once with a composite literal whose every use in its function
// only reads it (indexed, ranged over, measured, compared), or appends to
// it, v = append(v, f, g), whose values are then among its elements
// (spark-operator's buildSparkSubmitArgs appends its pod template and
// last options to optionFuncs). Anything else (a spread append, the
// container handed on, an element set) keeps the write, naming the line.

// container reports whether t is a map, slice or array: a variable of one
// holds its values as elements.
func container(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Map, *types.Slice, *types.Array:
		return true
	}
	return false
}

// rangedValue is the container a range defines v from (for _, v := range
// x), a name or a composite literal, when v is that range's value; ok is
// false when it is not.
func (si funcVals) rangedValue(v *types.Var) (x ast.Expr, why string, ok bool) {
	if _, ok := si.cursor(si.pass.Files[0]); !ok {
		return nil, "", false
	}
	c, ok := si.insp.Root().FindByPos(v.Pos(), v.Pos()+token.Pos(len(v.Name())))
	if !ok {
		return nil, "", false
	}
	r, isRange := c.Parent().Node().(*ast.RangeStmt)
	if !isRange || r.Tok != token.DEFINE || r.Value != c.Node() {
		return nil, "", false
	}
	switch x = ast.Unparen(r.X); x.(type) {
	case *ast.Ident, *ast.CompositeLit, *ast.CallExpr:
	default:
		return nil, "", false
	}
	if !container(si.pass.TypesInfo.TypeOf(r.X)) {
		return nil, "", false
	}
	fn := enclosingFn(c)
	if fn.Node() == nil {
		return nil, "", false
	}
	for w := range writesOf(fn, func(e ast.Expr) bool { return identOf(si.pass, e) == v }, nil) {
		return nil, fmt.Sprintf("%s is set again at %s", v.Name(), si.where(w.Node().Pos())), true
	}
	return x, "", true
}

// localContainer is the elements of the local container v, defined once
// with a composite literal and only read in its function (above); why
// says what else is done with it.
func (si funcVals) localContainer(v *types.Var) (elems []ast.Expr, why string, ok bool) {
	if _, ok := si.cursor(si.pass.Files[0]); !ok {
		return nil, "", false
	}
	c, _ := si.insp.Root().FindByPos(v.Pos(), v.Pos()+token.Pos(len(v.Name())))
	fn := enclosingFn(c)
	if fn.Node() == nil {
		return nil, "", false
	}
	appended, selfAppends, stmts := si.selfAppends(fn, v)
	x, why, ok := si.localValue(v, func(n ast.Node) bool { return stmts[n] })
	if !ok || why != "" {
		return nil, why, ok
	}
	lit, isLit := x.(*ast.CompositeLit)
	if !isLit {
		return nil, fmt.Sprintf("%s is defined with %s, not a literal", v.Name(), types.ExprString(x)), true
	}
	why = si.eachUse(fn.Node(), v, fn.Node().Pos(), fn.Node().End(), func(stack []ast.Node, id *ast.Ident) string {
		if id.Pos() == v.Pos() || selfAppends[id] {
			return "" // its definition, or v = append(v, ...)
		}
		if varSet(stack, true) {
			return fmt.Sprintf("%s is set at %s", v.Name(), si.where(id.Pos()))
		}
		if !mapRead(si.pass.TypesInfo, stack) {
			return fmt.Sprintf("%s is handed on at %s", v.Name(), si.where(id.Pos()))
		}
		return ""
	})
	if why != "" {
		return nil, why, true
	}
	return append(litElems(lit), appended...), "", true
}

// litElems is the values of lit's elements.
func litElems(lit *ast.CompositeLit) (elems []ast.Expr) {
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			e = kv.Value
		}
		elems = append(elems, e)
	}
	return elems
}

// selfAppends finds, in fn, the statements v = append(v, x, y) (no
// spread): the values they append, the two identifiers of v each has,
// which localContainer counts as neither a set nor a hand-on, and the
// statements.
func (si funcVals) selfAppends(fn inspector.Cursor, v *types.Var) (vals []ast.Expr, ids map[*ast.Ident]bool, stmts map[ast.Node]bool) {
	ids, stmts = map[*ast.Ident]bool{}, map[ast.Node]bool{}
	for c := range fn.Preorder((*ast.AssignStmt)(nil)) {
		as := c.Node().(*ast.AssignStmt)
		if as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			continue
		}
		lhs, _ := as.Lhs[0].(*ast.Ident)
		call, _ := as.Rhs[0].(*ast.CallExpr)
		if lhs == nil || call == nil || call.Ellipsis.IsValid() || len(call.Args) < 2 || si.pass.TypesInfo.Uses[lhs] != v {
			continue
		}
		b, _ := si.pass.TypesInfo.Uses[calledIdent(call)].(*types.Builtin)
		first, _ := call.Args[0].(*ast.Ident)
		if b == nil || b.Name() != "append" || first == nil || si.pass.TypesInfo.Uses[first] != v {
			continue
		}
		ids[lhs], ids[first], stmts[as] = true, true, true
		vals = append(vals, call.Args[1:]...)
	}
	return vals, ids, stmts
}

// containerValues is the functions the container x (a package variable,
// a local, above, or the range's own literal) holds.
func (si funcVals) containerValues(e ast.Expr) (vals []funcValue, why string, isValue bool) {
	if lit, ok := e.(*ast.CompositeLit); ok {
		return si.elemValues(litElems(lit), "the literal at "+si.where(lit.Pos()))
	}
	if call, ok := e.(*ast.CallExpr); ok {
		return si.returnedValues(call)
	}
	x, _ := e.(*ast.Ident)
	c, _ := si.pass.TypesInfo.Uses[x].(*types.Var)
	if c == nil || c.IsField() || !container(c.Type()) {
		return nil, "", false
	}
	if c.Parent() == si.pass.Pkg.Scope() {
		return si.varValues(c, nil)
	}
	elems, why, ok := si.localContainer(c)
	if !ok || why != "" {
		return nil, why, ok
	}
	return si.elemValues(elems, c.Name())
}

// elemValues is the functions the elements of a local container (named
// name) may be.
func (si funcVals) elemValues(elems []ast.Expr, name string) (vals []funcValue, why string, isValue bool) {
	for _, e := range elems {
		vs, why, ok := si.valuesOf(e, nil)
		if !ok && why == "" {
			why = fmt.Sprintf("it may be %s, not a function of the package", types.ExprString(e))
		}
		if why != "" {
			return nil, fmt.Sprintf("%s, an element of %s", why, name), true
		}
		for _, x := range vs {
			if x.lit != nil && ast.Unparen(e) == ast.Expr(x.lit) {
				x.name = fmt.Sprintf("the function literal of %s at %s", name, si.where(x.lit.Pos()))
			}
			vals = append(vals, x)
		}
	}
	return vals, "", true
}

// returnedValues is the functions a range over a call holds (for _, phase
// := range r.phases(), a newcomer's phases from a method): the callee a
// function or method of the package whose every return is a composite
// literal, their elements followed as the range's own literal's are.
// Anything else (a named result, a returned variable, another package's
// function) keeps the write, naming the call.
func (si funcVals) returnedValues(call *ast.CallExpr) (vals []funcValue, why string, isValue bool) {
	name := types.ExprString(call.Fun)
	fn := kube.CalledFunc(si.pass, call)
	decl := si.funcDecl(fn)
	if fn == nil || decl == nil || decl.Body == nil {
		return nil, fmt.Sprintf("the range is over %s at %s, not a function of the package", name, si.where(call.Pos())), true
	}
	var elems []ast.Expr
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			var lit *ast.CompositeLit
			if len(n.Results) == 1 {
				lit, _ = ast.Unparen(n.Results[0]).(*ast.CompositeLit)
			}
			if lit == nil {
				if why == "" {
					why = fmt.Sprintf("the range is over %s at %s, which returns other than a literal at %s", name, si.where(call.Pos()), si.where(n.Pos()))
				}
				return false
			}
			elems = append(elems, litElems(lit)...)
		}
		return true
	})
	if why == "" && len(elems) == 0 {
		why = fmt.Sprintf("the range is over %s at %s, which returns no literal", name, si.where(call.Pos()))
	}
	if why != "" {
		return nil, why, true
	}
	return si.elemValues(elems, "the literal "+name+" returns")
}
