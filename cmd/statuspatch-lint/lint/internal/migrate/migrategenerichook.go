package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
)

// A hook is a func field of a generic reconciler type its method calls
// with the object between the read (or base) and the write: Hook(ctx,
// obj), Observe(obj, gen). Each value the package sets it to, in a
// literal of the type (keyed or not) or by assignment, is judged: a
// function literal, or a function or method of the package named as a
// value (r.statusHook), whose body reads the object's status decides from
// it, and the write's Flush, refused as a conflict, would leave that
// decision made on a stale read (a generic function's mutate parameter
// moves into Retry, migrategenericretry.go; a hook is not). One that
// hands the object to another call is not followed; any other value (a
// variable, a call's result, a function of another package) is not seen;
// a hook the package sets nowhere neither. Each keeps the write, naming
// the line. An exported type's hooks set in other packages of the module
// are not judged (TestFixMovesGenericReconcilerType's ctrl sets Hook).
// Values set in _test.go files run in the tests only, never where the
// write runs: they are not looked at.

// hookWhy says why the method's calls of its hooks keep the write, or "".
func (o *ownBase) hookWhy(call *ast.CallExpr) string {
	body, ok := o.cursor(o.fd.Body)
	if !ok {
		return ""
	}
	for c := range body.Preorder((*ast.CallExpr)(nil)) {
		hc := c.Node().(*ast.CallExpr)
		if hc == call || hc.Pos() < o.def.End() || hc.Pos() >= o.writeEnd(call) {
			continue
		}
		sel, _ := ast.Unparen(hc.Fun).(*ast.SelectorExpr)
		at := slices.IndexFunc(hc.Args, o.isObjOf)
		if sel == nil || at < 0 {
			continue
		}
		field, _ := o.pass.TypesInfo.Uses[sel.Sel].(*types.Var)
		if field == nil || !field.IsField() {
			continue
		}
		called := fmt.Sprintf("its hook %s, called at %s,", field.Name(), o.where(hc.Pos()))
		if why := o.hookValuesWhy(called, field, at); why != "" {
			return why
		}
	}
	return ""
}

// hookValuesWhy judges each value the package sets field to, its object
// the at'th argument of the hook's call.
func (o *ownBase) hookValuesWhy(called string, field *types.Var, at int) string {
	why, seen := "", false
	for _, f := range o.pass.Files {
		if testFile(o.pass, f) {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if why != "" {
				return false
			}
			for _, v := range o.hookValues(n, field) {
				seen = true
				if why = o.hookValueWhy(called, v, at); why != "" {
					return false
				}
			}
			return true
		})
		if why != "" {
			return why
		}
	}
	if !seen && !o.recvTypeParam().Obj().Exported() {
		return called + " is set nowhere in the package: which function it is is not seen"
	}
	return ""
}

// hookValues are the values n sets field to: a literal of its type's
// element, keyed or in order, or an assignment to the field.
func (o *ownBase) hookValues(n ast.Node, field *types.Var) []ast.Expr {
	var out []ast.Expr
	switch n := n.(type) {
	case *ast.CompositeLit:
		st, ok := o.pass.TypesInfo.TypeOf(n).Underlying().(*types.Struct)
		if !ok {
			return nil
		}
		for i, e := range n.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				key, _ := kv.Key.(*ast.Ident)
				if kf, _ := o.pass.TypesInfo.Uses[key].(*types.Var); kf != nil && kf.Origin() == field.Origin() {
					out = append(out, kv.Value)
				}
			} else if i < st.NumFields() && st.Field(i).Origin() == field.Origin() {
				out = append(out, e)
			}
		}
	case *ast.AssignStmt:
		for i, l := range n.Lhs {
			sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
			if !ok || i >= len(n.Rhs) {
				continue
			}
			if s := o.pass.TypesInfo.Selections[sel]; s != nil && s.Kind() == types.FieldVal && s.Obj().(*types.Var).Origin() == field.Origin() {
				out = append(out, n.Rhs[i])
			}
		}
	}
	return out
}

// hookValueWhy judges one value v of a hook: the function it is, given
// the object as its at'th parameter.
func (o *ownBase) hookValueWhy(called string, v ast.Expr, at int) string {
	set := fmt.Sprintf("%s is set at %s to %s", called, o.where(v.Pos()), o.text().source(v))
	var params *ast.FieldList
	var body *ast.BlockStmt
	which := ", which"
	switch x := ast.Unparen(v).(type) {
	case *ast.FuncLit:
		params, body, which = x.Type.Params, x.Body, " that"
		set = fmt.Sprintf("%s is set at %s to a function", called, o.where(v.Pos()))
	default:
		var id *ast.Ident
		switch x := x.(type) {
		case *ast.Ident:
			id = x
		case *ast.SelectorExpr:
			id = x.Sel
		}
		fn, _ := o.pass.TypesInfo.Uses[id].(*types.Func)
		decl := declOf(o.pass, fn)
		switch {
		case fn == nil:
			return set + ", not a function named or written there: which function it holds is not seen"
		case decl == nil || decl.Body == nil:
			return set + ", a function of another package: what it does with the status is not seen"
		}
		params, body = decl.Type.Params, decl.Body
		set += ", declared at " + o.where(decl.Pos())
	}
	var p *types.Var
	i := 0
	for _, f := range params.List {
		for _, n := range f.Names {
			if i == at {
				p, _ = o.pass.TypesInfo.Defs[n].(*types.Var)
			}
			i++
		}
	}
	if p == nil {
		return set + ", which does not name the object's parameter: what it does with the status is not seen"
	}
	if readsOwnStatus(o.pass.TypesInfo, body, p) {
		return fmt.Sprintf("%s%s reads %s's status: it decides from the status, and the hook is not moved into the patcher's Retry (%s)", set, which, p.Name(), CachedDecision)
	}
	handed := ""
	ast.Inspect(body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || handed != "" {
			return handed == ""
		}
		for _, a := range c.Args {
			if identOf(o.pass, a) == p {
				handed = fmt.Sprintf("%s%s hands %s to %s at %s: whether that reads its status is not followed", set, which, p.Name(), types.ExprString(c.Fun), o.where(c.Pos()))
			}
		}
		return true
	})
	return handed
}
