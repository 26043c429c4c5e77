package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ast/inspector"
)

// A client may be set through a pointer to the field that holds it: p
// := &r.sub; if *p == nil { *p = &sub{c: r.Client} }. Taking the address
// sets nothing; the write through the pointer does (review R5 of s105:
// -fix counted `p := &r.sub` as the set, made the patcher right after
// it, before `*p = ...`, and the project's test panicked on a nil
// pointer; with the pointer taken before the read, it saw no set at all).
// A local pointer the function uses only through it (*p, p.f, (*p).f),
// compares, or hands to a call is an alias: a write through it sets the
// client there, a call handed it sets it at the call. An address held
// anywhere else (stored, returned, copied) may be written through where
// the walk does not follow: the write stays, naming the line.

// aliases finds, in the function at root, the local pointers to the
// client's fields (w.alias, w.aliasDef), and says why an address taken
// otherwise may set the client where -fix does not follow it; "" when
// none is.
func (w *setWalk) aliases(root inspector.Cursor) string {
	info := w.si.pass.TypesInfo
	for cur := range root.Preorder((*ast.UnaryExpr)(nil)) {
		u := cur.Node().(*ast.UnaryExpr)
		if u.Op != token.AND || !w.is(u.X) {
			continue
		}
		if call, isCall := cur.Parent().Node().(*ast.CallExpr); isCall {
			if _, builtin := info.Uses[identOrSel(call.Fun)].(*types.Builtin); !builtin {
				continue // set at the call (last)
			}
		}
		if p := definedAs(info, cur); p != nil && onlyThrough(info, root, p) {
			if w.alias == nil {
				w.alias, w.aliasDef = map[*types.Var]bool{}, map[ast.Node]bool{}
			}
			w.alias[p], w.aliasDef[u] = true, true
			continue
		}
		return fmt.Sprintf("the address of %s is taken at %s and held where -fix does not follow it", types.ExprString(u.X), w.si.where(u.Pos()))
	}
	return ""
}

// definedAs is the local variable the expression at cur is assigned to
// alone or in a list of as many (p := &r.sub, var p = &r.sub), or nil.
func definedAs(info *types.Info, cur inspector.Cursor) *types.Var {
	e := cur.Node()
	var lhs []ast.Expr
	var rhs []ast.Expr
	switch s := cur.Parent().Node().(type) {
	case *ast.AssignStmt:
		lhs, rhs = s.Lhs, s.Rhs
	case *ast.ValueSpec:
		for _, n := range s.Names {
			lhs = append(lhs, n)
		}
		rhs = s.Values
	}
	if len(lhs) != len(rhs) {
		return nil
	}
	for i, r := range rhs {
		if r != e {
			continue
		}
		id, ok := lhs[i].(*ast.Ident)
		if !ok {
			return nil
		}
		v, _ := info.ObjectOf(id).(*types.Var)
		if v == nil || v.IsField() || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
			return nil
		}
		return v
	}
	return nil
}

// onlyThrough reports whether every use of p in the function at root
// goes through it (*p, p.f), compares it, assigns it, or hands it to a
// call: no copy of the pointer outlives what the walk sees.
func onlyThrough(info *types.Info, root inspector.Cursor, p *types.Var) bool {
	for cur := range root.Preorder((*ast.Ident)(nil)) {
		id := cur.Node().(*ast.Ident)
		if info.Uses[id] != p {
			continue
		}
		switch par := cur.Parent().Node().(type) {
		case *ast.StarExpr, *ast.SelectorExpr, *ast.CallExpr:
		case *ast.BinaryExpr:
			if par.Op != token.EQL && par.Op != token.NEQ {
				return false
			}
		case *ast.AssignStmt:
			if !slices.Contains(par.Lhs, ast.Expr(id)) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// throughAlias reports whether e writes through one of alias: *p,
// p.f, (*p).f.
func throughAlias(info *types.Info, alias map[*types.Var]bool, e ast.Expr) bool {
	if len(alias) == 0 {
		return false
	}
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		default:
			return false
		}
		if id, ok := ast.Unparen(e).(*ast.Ident); ok && alias[asVar(info.ObjectOf(id))] {
			return true
		}
	}
}

func asVar(o types.Object) *types.Var {
	v, _ := o.(*types.Var)
	return v
}

// handsAlias reports whether call hands one of alias to the code it
// runs.
func handsAlias(info *types.Info, alias map[*types.Var]bool, call *ast.CallExpr) bool {
	for _, a := range call.Args {
		if id, ok := ast.Unparen(a).(*ast.Ident); ok && alias[asVar(info.ObjectOf(id))] {
			return true
		}
	}
	return false
}

// identOrSel is the identifier fun names (f, pkg.f), or nil.
func identOrSel(fun ast.Expr) *ast.Ident {
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		return f
	case *ast.SelectorExpr:
		return f.Sel
	}
	return nil
}
