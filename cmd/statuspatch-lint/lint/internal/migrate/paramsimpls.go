package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ast/inspector"
)

// A call of an interface's method runs whichever implementation the
// receiver holds. When the receiver comes from a field or variable only
// this package can assign (an unexported field of a type of the package,
// or an unexported package variable: karpenter's consistency controller
// ranges over c.checks, a []Check its constructor fills with
// NewNodeShape(), which returns &NodeShape{}), every value it is ever
// given is in the package's syntax: the implementations that can run are
// the types of those values, and the call changes at most the status
// when each of theirs does (checkFunc, the rules of a function of the
// package). Unknown, so the write stays, when any value it is given is
// not a literal, a value of a concrete type, nil, or what a function of
// the package returns of those; when the field or a container of its
// values is handed on, aliased, sliced or its address taken; when a
// literal of its struct is unkeyed; or when it is given nothing. Values
// put there by reflect or unsafe are not seen.

// impls follows a call of an interface's method to the implementations
// that can run there.
type impls struct{ checks }

func (m checks) impls() impls { return impls{m} }

// impl is one implementation a field or variable is given, where.
type impl struct {
	t  types.Type
	at token.Pos
}

// maxImplDepth bounds how many locals and functions deep the values of a
// receiver are followed.
const maxImplDepth = 3

// isIfaceMethod reports whether fn is a method of an interface.
func isIfaceMethod(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	return recv != nil && types.IsInterface(recv.Type())
}

// check is checkCallee of call, a call of the interface method fn given
// the object as its argument arg: each implementation the receiver may
// hold is checked as a function of the package. why is "" when which
// implementations may run is not known (useProblem says so).
func (i impls) check(call *ast.CallExpr, fn *types.Func, arg, depth int) (ok bool, why string) {
	sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !isSel {
		return false, ""
	}
	src := i.source(call, sel.X, 0)
	if src == nil {
		return i.assume(call, fn, arg, ""), ""
	}
	set, why := i.given(src)
	if why != "" || len(set) == 0 {
		if i.assume(call, fn, arg, "") {
			return true, ""
		}
		if why != "" {
			why = fmt.Sprintf("which implementation of %s runs there is not known: %s", fn.Name(), why)
		}
		return false, why
	}
	for _, im := range set {
		obj, _, _ := types.LookupFieldOrMethod(im.t, false, i.pass.Pkg, fn.Name())
		f, _ := obj.(*types.Func)
		if f == nil {
			return false, ""
		}
		if ok, inner := i.checkFunc(call, f, arg, false, depth); !ok {
			if inner == "" {
				inner = "it may change more than its status"
			}
			return false, fmt.Sprintf("%s holds a %s (given at %s), whose %s runs there: %s", src.Name(), typeText(im.t, i.pass.Pkg), i.where(im.at), funcName(f, i.pass.Pkg), inner)
		}
	}
	return true, ""
}

// source is the field or variable the receiver e of an interface call
// comes from, when only this package can assign it: x.f, x.f[k], a
// package variable, or a local defined once from one of them (a range
// value over x.f, v := x.f[k]) and not assigned again nor addressed.
func (i impls) source(call *ast.CallExpr, e ast.Expr, depth int) *types.Var {
	if depth > maxImplDepth {
		return nil
	}
	e = ast.Unparen(e)
	if ix, ok := e.(*ast.IndexExpr); ok {
		e = ast.Unparen(ix.X)
	}
	var v *types.Var
	switch x := e.(type) {
	case *ast.SelectorExpr:
		if s := i.pass.TypesInfo.Selections[x]; s != nil && s.Kind() == types.FieldVal {
			v, _ = s.Obj().(*types.Var)
		}
	case *ast.Ident:
		v, _ = i.pass.TypesInfo.Uses[x].(*types.Var)
		if v != nil && !v.IsField() && v.Parent() != i.pass.Pkg.Scope() {
			return i.localSource(call, v, depth)
		}
	}
	if v == nil || v.Exported() || v.Pkg() != i.pass.Pkg || !v.IsField() && v.Parent() != i.pass.Pkg.Scope() {
		return nil
	}
	return v.Origin()
}

// localSource is source of the local v, used at call: its one definition,
// a range value or a := of one expression, when no other statement
// assigns it or takes its address.
func (i impls) localSource(call *ast.CallExpr, v *types.Var, depth int) *types.Var {
	cur, ok := i.cursor(call)
	if !ok {
		return nil
	}
	var fn inspector.Cursor
	for c := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		fn = c
	}
	if fn.Node() == nil {
		return nil
	}
	var from ast.Expr
	defs := 0
	for c := range fn.Preorder((*ast.Ident)(nil)) {
		id := c.Node().(*ast.Ident)
		if i.pass.TypesInfo.Defs[id] == v {
			defs++
			switch p := c.Parent().Node().(type) {
			case *ast.RangeStmt:
				if p.Value == id && rangesElems(i.pass.TypesInfo.TypeOf(p.X)) {
					from = p.X
				}
			case *ast.AssignStmt:
				if k := slices.Index(p.Lhs, ast.Expr(id)); k >= 0 && len(p.Lhs) == len(p.Rhs) {
					from = p.Rhs[k]
				}
			}
			continue
		}
		if i.pass.TypesInfo.Uses[id] != v {
			continue
		}
		switch p := c.Parent().Node().(type) {
		case *ast.AssignStmt:
			if isLHS(p, id) {
				return nil
			}
		case *ast.UnaryExpr:
			if p.Op == token.AND {
				return nil
			}
		case *ast.RangeStmt:
			if p.Key == id || p.Value == id {
				return nil
			}
		}
	}
	if defs != 1 || from == nil {
		return nil
	}
	return i.source(call, from, depth+1)
}

// rangesElems reports whether ranging over a value of type t yields its
// elements: a slice, array, pointer to an array, or map.
func rangesElems(t types.Type) bool {
	if t == nil {
		return false
	}
	u := t.Underlying()
	if p, ok := u.(*types.Pointer); ok {
		u = p.Elem().Underlying()
	}
	switch u.(type) {
	case *types.Slice, *types.Array, *types.Map:
		return true
	}
	return false
}
