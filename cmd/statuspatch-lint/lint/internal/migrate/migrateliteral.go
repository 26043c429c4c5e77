package migrate

import (
	"go/ast"
	"go/token"
	"go/types"
)

// A reference into the object put in a composite literal, or appended to
// a slice of the function, is followed (issue 72: lws's ComputeRevision
// puts role.Spec.LeaderWorkerTemplate in a roleTemplate{...} literal,
// appends it to templates, and only json.Marshal reads templates): the
// literal by the rules of a reference into the object (chainChange), the
// slice as a local (followLocal). A slice appended to must be one the
// function made (make, a literal, or declared empty) and only appended
// to after: one sharing another's array would hand the reference on out
// of sight.

// literalHolding returns the index in stack of the outermost composite
// literal, or its address (&T{...}), that holds stack[top] as an
// element, a field's value, or a map's key or value; -1 if none does.
func literalHolding(stack []ast.Node, top int) int {
	i, found := top, -1
	for i > 0 {
		switch p := stack[i-1].(type) {
		case *ast.KeyValueExpr:
			if i < 2 {
				return found
			}
			if _, ok := stack[i-2].(*ast.CompositeLit); !ok {
				return found
			}
			i -= 2
		case *ast.CompositeLit:
			if p.Type == stack[i] {
				return found
			}
			i--
		case *ast.UnaryExpr, *ast.ParenExpr:
			if u, ok := p.(*ast.UnaryExpr); found != i || ok && u.Op != token.AND {
				return found
			}
			i--
		default:
			return found
		}
		found = i
	}
	return found
}

// literalReads reports whether the composite literal holding stack[top]
// (literalHolding) is only read: handed to a reader (json.Marshal, ...),
// put in a local only read, or appended to one.
func (si refs) literalReads(stack []ast.Node, top int) bool {
	lit := literalHolding(stack, top)
	if lit < 0 {
		return false
	}
	direct, how := si.chainChange(stack, lit)
	return !direct && how == ""
}

// appendedTo returns the local slice x of x = append(x, ..., e, ...) (or
// x := append(...)) at stack[ci], whose call is call; same reports that e
// is x itself, appended to again, and ok that x is one the function made
// and only appends to (freshSlice).
func (si refs) appendedTo(stack []ast.Node, ci int, call *ast.CallExpr, e ast.Expr) (x *types.Var, same, ok bool) {
	id, isID := ast.Unparen(call.Fun).(*ast.Ident)
	if !isID || ci < 1 || len(call.Args) == 0 {
		return nil, false, false
	}
	if b, isB := si.pass.TypesInfo.Uses[id].(*types.Builtin); !isB || b.Name() != "append" {
		return nil, false, false
	}
	as, isAs := stack[ci-1].(*ast.AssignStmt)
	if !isAs || len(as.Lhs) != 1 || len(as.Rhs) != 1 || as.Rhs[0] != call {
		return nil, false, false
	}
	lhs, isID := as.Lhs[0].(*ast.Ident)
	if !isID {
		return nil, false, false
	}
	v, _ := si.pass.TypesInfo.ObjectOf(lhs).(*types.Var)
	if v == nil || v.IsField() || v.Parent() == nil || v.Parent() == si.pass.Pkg.Scope() {
		return nil, false, false
	}
	arg, isID := ast.Unparen(e).(*ast.Ident)
	same = isID && e == call.Args[0] && si.pass.TypesInfo.Uses[arg] == v
	// Fresh either way: x := w.Spec.Roles[:1]; x = append(x, r) would
	// write r into the object's array.
	return v, same, si.freshSlice(v)
}

// freshSlice reports whether the local slice v is made by its function
// (x := make(...), x := []T{...}, var x []T) and every later assignment
// to it is x = append(x, ...): its array is shared with no other slice.
func (si refs) freshSlice(v *types.Var) bool {
	var file *ast.File
	for _, f := range si.pass.Files {
		if f.FileStart <= v.Pos() && v.Pos() < f.FileEnd {
			file = f
		}
	}
	if file == nil {
		return false
	}
	fresh, ok := false, true
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				id, isID := l.(*ast.Ident)
				if !isID || si.pass.TypesInfo.ObjectOf(id) != v {
					continue
				}
				var rhs ast.Expr
				if len(n.Lhs) == len(n.Rhs) {
					rhs = n.Rhs[i]
				}
				switch {
				case n.Tok == token.DEFINE && si.pass.TypesInfo.Defs[id] == v:
					fresh = si.madeHere(rhs)
				case !si.appendsTo(rhs, v):
					ok = false
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if si.pass.TypesInfo.Defs[name] != v {
					continue
				}
				fresh = len(n.Values) == 0 || len(n.Values) == len(n.Names) && si.madeHere(n.Values[i])
			}
		}
		return ok
	})
	return fresh && ok
}

// madeHere reports whether e is a new slice: make(...), a composite
// literal, or nil.
func (si refs) madeHere(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return true
	case *ast.Ident:
		_, isNil := si.pass.TypesInfo.Uses[e].(*types.Nil)
		return isNil
	case *ast.CallExpr:
		id, isID := ast.Unparen(e.Fun).(*ast.Ident)
		b, isB := si.pass.TypesInfo.Uses[id].(*types.Builtin)
		return isID && isB && b.Name() == "make"
	}
	return false
}

// appendsTo reports whether e is append(v, ...).
func (si refs) appendsTo(e ast.Expr, v *types.Var) bool {
	call, isCall := ast.Unparen(e).(*ast.CallExpr)
	if !isCall || len(call.Args) == 0 {
		return false
	}
	id, isID := ast.Unparen(call.Fun).(*ast.Ident)
	b, isB := si.pass.TypesInfo.Uses[id].(*types.Builtin)
	arg, isArg := ast.Unparen(call.Args[0]).(*ast.Ident)
	return isID && isB && b.Name() == "append" && isArg && si.pass.TypesInfo.Uses[arg] == v
}
