package migrate

import (
	"go/ast"
	"go/token"
	"go/types"
)

// The ways a callee's body may carry the object on, each followed as
// exactly as a plain assignment or blocked naming its line (Exact or
// Unknown): a type assertion, a type switch, a conversion or a slice of
// it is the object again (path, itself); a bare return gives back the
// named results holding it; a channel send, a reference -fix does not
// follow (node); a method expression's first argument is its receiver
// (calleeArg).

// path is the variable e reaches through selectors, indexes, slices,
// dereferences, addresses, receives, type assertions and conversions,
// and whether through a field named Status; nil for anything else.
func (w *calleeWalk) path(e ast.Expr) (*types.Var, bool) {
	status := false
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			v, _ := w.info.ObjectOf(x).(*types.Var)
			return v, status
		case *ast.SelectorExpr:
			status = status || x.Sel.Name == "Status"
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.SliceExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.TypeAssertExpr:
			e = x.X
		case *ast.UnaryExpr:
			if x.Op != token.AND && x.Op != token.ARROW {
				return nil, false
			}
			e = x.X
		case *ast.CallExpr:
			if !w.conversion(x) {
				return nil, false
			}
			e = x.Args[0]
		default:
			return nil, false
		}
	}
}

// itself reports whether e is the object, not a part of it: x, *x, &x,
// x.(T), (T)(x). A reference into its spec or metadata, kept or handed
// on, changes no status.
func (w *calleeWalk) itself(e ast.Expr) bool {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return true
		case *ast.StarExpr:
			e = x.X
		case *ast.TypeAssertExpr:
			e = x.X
		case *ast.UnaryExpr:
			if x.Op != token.AND {
				return false
			}
			e = x.X
		case *ast.CallExpr:
			if !w.conversion(x) {
				return false
			}
			e = x.Args[0]
		default:
			return false
		}
	}
}

// carries reports whether e's value shares memory with the object's
// status: the object itself, or a part of its status.
func (w *calleeWalk) carries(e ast.Expr) bool {
	rooted, status := w.held(e)
	return rooted && (status || w.itself(e)) && w.reference(e)
}

// conversion reports whether call converts its argument to a type.
func (w *calleeWalk) conversion(call *ast.CallExpr) bool {
	return len(call.Args) == 1 && w.info.Types[call.Fun].IsType()
}

// unknown keeps the first reference -fix does not follow: what, at n.
func (w *calleeWalk) unknown(n ast.Node, what string) {
	if w.e.unknown.what == "" {
		w.e.unknown.what = what + " at " + w.at(n) + ", which -fix does not follow"
	}
}

// typeSwitch follows x of `switch v := x.(type)` into each clause's v.
func (w *calleeWalk) typeSwitch(n *ast.TypeSwitchStmt) {
	as, ok := n.Assign.(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 || !w.carries(as.Rhs[0]) {
		return
	}
	_, status := w.held(as.Rhs[0])
	for _, c := range n.Body.List {
		v, _ := w.info.Implicits[c].(*types.Var)
		switch {
		case v == nil:
			w.unknown(c, "switches on the type of "+exprText(w.s.fset, as.Rhs[0]))
			return
		case status:
			w.status[v] = true
		default:
			w.whole[v] = true
		}
	}
}

// bareReturn blocks a bare return of a named result holding the object.
func (w *calleeWalk) bareReturn(n *ast.ReturnStmt) {
	for _, v := range w.results {
		if (w.whole[v] || w.status[v]) && refType(v.Type()) {
			w.unknown(n, "returns "+v.Name())
			return
		}
	}
}

// namedResults adds ft's named results to those a bare return gives.
func (w *calleeWalk) namedResults(ft *ast.FuncType) {
	if ft == nil || ft.Results == nil {
		return
	}
	for _, f := range ft.Results.List {
		for _, id := range f.Names {
			if v, _ := w.info.Defs[id].(*types.Var); v != nil {
				w.results = append(w.results, v)
			}
		}
	}
}

// refType reports whether a value of t shares memory with what it was
// taken from.
func refType(t types.Type) bool {
	if t == nil {
		return true
	}
	if tu, ok := t.(*types.Tuple); ok && tu.Len() > 0 {
		t = tu.At(0).Type() // v, ok := x.(T): the types record the pair
	}
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Slice, *types.Map, *types.Interface, *types.Struct, *types.Chan:
		return true
	}
	return false
}

// calleeArg is the parameter of call's callee its argument arg is
// given to: a method expression's first argument is the receiver (-1).
func calleeArg(info *types.Info, call *ast.CallExpr, arg int) int {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && arg >= 0 {
		if s := info.Selections[sel]; s != nil && s.Kind() == types.MethodExpr {
			return arg - 1
		}
	}
	return arg
}
