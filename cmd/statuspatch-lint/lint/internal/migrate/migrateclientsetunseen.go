package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// A call whose body the client-set walk cannot read (setWalk,
// migrateclientsetwalk.go) may still set the client:
//
//   - a call through a function held in a field (h.hook(), or a local
//     taken from one), or a call's result: its function is not seen, and
//     may be a literal of the package that sets it; the write stays,
//     naming the call and the field (unless sealed);
//   - an interface's method: each type of the package implementing the
//     interface is followed into its method, as a function of the
//     package; another package's implementation cannot name the
//     package's fields, and reaches them only through what it is handed
//     (below);
//   - another package's function or method, and an interface's method:
//     it can set the client only through what it is handed (its
//     arguments; its receiver is its own package's value, or the
//     interface's, whose package types impls follows, or, for a method
//     promoted from an embedded field, that field): a value of a type of
//     the package, whose
//     exported methods it may call (each followed), or one through which
//     an exported field of the client's chain is reached (r, handed to
//     json.Unmarshal, with r.Ports exported: the write stays, naming the
//     call and the field). What an interface value or a function value
//     handed to it holds is not followed here (a function value is, by
//     callSets).

// unseenSets is where the call, whose function fn (nil: a function
// value callSets does not resolve) has no body in the package, may set
// the client; NoPos when it may not, w.unknown set when it may and the
// walk cannot tell where.
func (w *setWalk) unseenSets(call *ast.CallExpr, fn *types.Func) token.Pos {
	info := w.si.pass.TypesInfo
	if fn == nil {
		if tv, ok := info.Types[call.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
			return token.NoPos
		}
		fun := ast.Unparen(call.Fun)
		why := types.ExprString(fun) + " is a function value -fix does not resolve"
		switch v := w.otherPkgVar(fun); {
		case v != nil:
			// ctrl.LoggerFrom: another package's variable, its function
			// that package's, unless this package sets it.
			if at := w.varSetAt(v); at.IsValid() {
				why = fmt.Sprintf("%s is another package's variable, set at %s", types.ExprString(fun), w.si.where(at))
				break
			}
			return w.handedSets(call, types.ExprString(fun))
		default:
			if sel, ok := fun.(*ast.SelectorExpr); ok {
				if s := info.Selections[sel]; s != nil && s.Kind() == types.FieldVal {
					why = types.ExprString(fun) + " is a field holding a function -fix does not see"
				}
			}
		}
		w.unknownAt(call, why)
		return token.NoPos
	}
	if rt := recvType(fn); rt != nil && types.IsInterface(rt) {
		for _, m := range w.impls(fn) {
			if fd := w.si.funcDecl(m); fd != nil && fd.Body != nil {
				if at := w.bodySets(fd, call); at.IsValid() {
					return at
				}
			}
		}
	}
	return w.handedSets(call, funcName(fn, w.si.pass.Pkg))
}

// handedSets is where a method of the package that a value the call
// hands to name, another package's function, sets the client; NoPos
// when none does, w.unknown set when name may set it through an exported
// field.
func (w *setWalk) handedSets(call *ast.CallExpr, name string) token.Pos {
	info := w.si.pass.TypesInfo
	for _, e := range call.Args {
		t := info.TypeOf(e)
		if t == nil || types.IsInterface(t) || isSignature(t) {
			continue
		}
		if at := w.methodsSet(t); at.IsValid() {
			return at
		}
		if f := w.exportedReach(t, map[types.Type]bool{}); f != nil {
			w.unknownAt(call, fmt.Sprintf("it hands %s to %s, whose body is not the package's, and %s reaches the exported field %s", types.ExprString(e), name, types.ExprString(e), f.Name()))
		}
	}
	return token.NoPos
}

// otherPkgVar is the variable of another package fun names (pkg.V), or
// nil.
func (w *setWalk) otherPkgVar(fun ast.Expr) *types.Var {
	var id *ast.Ident
	switch f := fun.(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		if w.si.pass.TypesInfo.Selections[f] != nil {
			return nil
		}
		id = f.Sel
	default:
		return nil
	}
	v, _ := w.si.pass.TypesInfo.Uses[id].(*types.Var)
	if v == nil || v.IsField() || v.Pkg() == nil || v.Pkg() == w.si.pass.Pkg || v.Parent() != v.Pkg().Scope() {
		return nil
	}
	return v
}

// varSetAt is where a statement of the package assigns v or takes its
// address, NoPos when none does.
func (w *setWalk) varSetAt(v *types.Var) token.Pos {
	at := token.NoPos
	for _, f := range w.si.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					if w.names(l, v) {
						at = n.Pos()
					}
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND && w.names(n.X, v) {
					at = n.Pos()
				}
			}
			return !at.IsValid()
		})
		if at.IsValid() {
			break
		}
	}
	return at
}

// names reports whether e is v (v or pkg.v).
func (w *setWalk) names(e ast.Expr, v *types.Var) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return w.si.pass.TypesInfo.Uses[e] == v
	case *ast.SelectorExpr:
		return w.si.pass.TypesInfo.Uses[e.Sel] == v
	}
	return false
}

// unknownAt sets w.unknown, the first time and unless sealed, to why the
// call may set the client.
func (w *setWalk) unknownAt(call *ast.CallExpr, why string) {
	if w.unknown == "" && !w.sealed() {
		w.unknown = fmt.Sprintf("the call at %s may set it: %s", w.si.where(call.Pos()), why)
	}
}

// impls is the methods of the package's types that implement the
// interface method fn's interface, by fn's name.
func (w *setWalk) impls(fn *types.Func) []*types.Func {
	if ms, ok := w.implsOf[fn]; ok {
		return ms
	}
	w.implsOf[fn] = nil
	iface, ok := recvType(fn).Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	pkg := w.si.pass.Pkg
	var ms []*types.Func
	defer func() { w.implsOf[fn] = ms }()
	for _, name := range pkg.Scope().Names() {
		tn, ok := pkg.Scope().Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		for _, t := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
			if !types.Implements(t, iface) {
				continue
			}
			if m, _, _ := types.LookupFieldOrMethod(t, true, pkg, fn.Name()); m != nil {
				if m, ok := m.(*types.Func); ok && m.Pkg() == pkg {
					ms = append(ms, m)
				}
			}
			break
		}
	}
	return ms
}

// methodsSet is where an exported method of the package that a value of
// type t has sets the client (another package handed it may call it),
// NoPos when none does.
func (w *setWalk) methodsSet(t types.Type) token.Pos {
	ms := types.NewMethodSet(t)
	for i := range ms.Len() {
		m, ok := ms.At(i).Obj().(*types.Func)
		if !ok || !m.Exported() || m.Pkg() != w.si.pass.Pkg {
			continue
		}
		if fd := w.si.funcDecl(m); fd != nil && fd.Body != nil {
			if at := w.bodySets(fd, nil); at.IsValid() { // called by another package's code
				return at
			}
		}
	}
	return token.NoPos
}

// exportedReach is an exported field of the client's chain that code
// handed a value of type t can set (through a pointer t is, then
// exported fields, by value or pointer), or nil.
func (w *setWalk) exportedReach(t types.Type, seen map[types.Type]bool) *types.Var {
	if ptr, ok := t.Underlying().(*types.Pointer); ok {
		return w.exportedIn(ptr.Elem(), seen)
	}
	return nil
}

// exportedIn is exportedReach's walk of the struct t, or of what t points
// to.
func (w *setWalk) exportedIn(t types.Type, seen map[types.Type]bool) *types.Var {
	if ptr, ok := t.Underlying().(*types.Pointer); ok {
		t = ptr.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || seen[t] {
		return nil
	}
	seen[t] = true
	for f := range st.Fields() {
		switch {
		case f.Exported() && slices.Contains(w.fs, f):
			return f
		case f.Exported() || f.Embedded():
			if r := w.exportedIn(f.Type(), seen); r != nil {
				return r
			}
		}
	}
	return nil
}
