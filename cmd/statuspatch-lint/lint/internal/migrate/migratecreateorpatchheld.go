package migrate

import (
	"go/ast"
	"go/types"
)

// Closures held other than by a local function variable (s112): a
// value given a function literal capturing the object or a holder of a
// part of it (fs := []func(){func() { w.Spec.Size = 3 }}; h :=
// struct{ run func() }{...}; run := wrap(func() {...}); fs :=
// []func(){f}) may run it wherever it goes, which callees does not
// follow: holders takes it as a holder of the whole object. A local
// function variable given a literal, or another's, is not one: callees
// follows what it runs (followed).

// followed reports whether lhs = rhs gives a local function variable a
// literal, or another's that holds some (funcLits): callees follows
// what it runs.
func followed(info *types.Info, lits map[*types.Var][]*ast.FuncLit, lhs, rhs ast.Expr) bool {
	id, ok := ast.Unparen(lhs).(*ast.Ident)
	if !ok {
		return false
	}
	if v, _ := info.ObjectOf(id).(*types.Var); lits[v] == nil {
		return false
	}
	switch r := ast.Unparen(rhs).(type) {
	case *ast.FuncLit:
		return true
	case *ast.Ident:
		u, _ := info.Uses[r].(*types.Var)
		return lits[u] != nil
	}
	return false
}

// closureHeld reports whether e may yield a function literal capturing
// the object or a holder (captures): one written in e, or one a local
// function variable e names holds.
func closureHeld(cs *site, obj *types.Var, lits map[*types.Var][]*ast.FuncLit, hs map[*types.Var]holder, e ast.Expr) bool {
	ec, ok := cs.cursor(e)
	if !ok {
		return false
	}
	seen := map[*ast.FuncLit]bool{}
	for c := range ec.Preorder((*ast.FuncLit)(nil), (*ast.Ident)(nil)) {
		switch n := c.Node().(type) {
		case *ast.FuncLit:
			if captures(cs, obj, lits, hs, n, seen) {
				return true
			}
		case *ast.Ident:
			v, _ := cs.pass.TypesInfo.Uses[n].(*types.Var)
			for _, lit := range lits[v] {
				if captures(cs, obj, lits, hs, lit, seen) {
					return true
				}
			}
		}
	}
	return false
}

// captures reports whether lit's body uses the object or a holder, or a
// local function variable whose literal does.
func captures(cs *site, obj *types.Var, lits map[*types.Var][]*ast.FuncLit, hs map[*types.Var]holder, lit *ast.FuncLit, seen map[*ast.FuncLit]bool) bool {
	if seen[lit] {
		return false
	}
	seen[lit] = true
	for c := range mustCursor(cs, lit.Body).Preorder((*ast.Ident)(nil)) {
		v, _ := cs.pass.TypesInfo.Uses[c.Node().(*ast.Ident)].(*types.Var)
		if _, held := hs[v]; v != nil && (v == obj || held) {
			return true
		}
		for _, l := range lits[v] {
			if captures(cs, obj, lits, hs, l, seen) {
				return true
			}
		}
	}
	return false
}

// mayHoldFunc reports whether a value of type t may hold a function
// value: a function, an interface, or one made of them.
func mayHoldFunc(t types.Type, seen map[types.Type]bool) bool {
	if t == nil {
		return true
	}
	if seen[t] {
		return false
	}
	seen[t] = true
	switch u := t.Underlying().(type) {
	case *types.Signature, *types.Interface:
		return true
	case *types.Pointer:
		return mayHoldFunc(u.Elem(), seen)
	case *types.Slice:
		return mayHoldFunc(u.Elem(), seen)
	case *types.Array:
		return mayHoldFunc(u.Elem(), seen)
	case *types.Chan:
		return mayHoldFunc(u.Elem(), seen)
	case *types.Map:
		return mayHoldFunc(u.Key(), seen) || mayHoldFunc(u.Elem(), seen)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if mayHoldFunc(u.Field(i).Type(), seen) {
				return true
			}
		}
	case *types.Tuple:
		for i := 0; i < u.Len(); i++ {
			if mayHoldFunc(u.At(i).Type(), seen) {
				return true
			}
		}
	}
	return false
}
