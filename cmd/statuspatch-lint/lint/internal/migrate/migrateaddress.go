package migrate

import (
	"go/ast"
	"go/token"
	"go/types"
)

// An address taken into the object (&w.Spec.Labels) is a reference into
// it like any other: its uses are followed (chainChange), and it counts
// as a change only when one of them may change the object. lws's
// GetPVCApplyConfiguration puts &pvc.Spec.Resources.Requests in an apply
// configuration (vrr.Requests = &..., a field of a local struct) that
// runtime.DefaultUnstructuredConverter.ToUnstructured then copies into
// new maps: read. Written through (*p = ..., (*cfg.Labels)[k] = v),
// handed to a function not followed, or stored outside the function, it
// is a change, as before.
//
// A local struct that a reference is assigned into, field by field
// (cfg.Labels = &w.Spec.Labels, through no pointer), holds it: the
// local's uses are followed as the reference's (fieldHolder). Assigning
// into such a local's own fields again changes only the local
// (ownFieldAssigned).

// addressRead reports whether the address taken at stack[i], a
// *ast.UnaryExpr &x of x in the object, is only read where it goes.
func (si refs) addressRead(stack []ast.Node, i int) bool {
	direct, how := si.chainChange(stack, i)
	return !direct && how == ""
}

// fieldHolder returns the local variable v of the assignment p when p is
// v.F = e (or v.F.G = e) through fields of v's own storage: v is a struct
// value, not a pointer, and no selection on the way goes through one, so
// e lands in v and nowhere else. nil otherwise.
func (si refs) fieldHolder(p ast.Node, e ast.Expr) *types.Var {
	as, ok := p.(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
		return nil
	}
	idx := -1
	for i, r := range as.Rhs {
		if r == e {
			idx = i
		}
	}
	if idx < 0 {
		return nil
	}
	x, selected := ast.Unparen(as.Lhs[idx]), false
	for {
		sel, ok := x.(*ast.SelectorExpr)
		if !ok {
			break
		}
		if s := si.pass.TypesInfo.Selections[sel]; s == nil || s.Kind() != types.FieldVal || s.Indirect() {
			return nil
		}
		x, selected = ast.Unparen(sel.X), true
	}
	id, ok := x.(*ast.Ident)
	if !ok || !selected {
		return nil
	}
	v, _ := si.pass.TypesInfo.Uses[id].(*types.Var)
	if v == nil || v.IsField() || v.Parent() == nil || v.Parent() == si.pass.Pkg.Scope() {
		return nil
	}
	if _, ok := v.Type().Underlying().(*types.Struct); !ok || si.namedResult(v) {
		return nil
	}
	return v
}

// namedResult reports whether v is a named result of any function (not
// only the write's: isResult), which a bare return
// hands on without naming it.
func (si refs) namedResult(v *types.Var) bool {
	found := false
	for _, f := range si.pass.Files {
		if f.FileStart > v.Pos() || v.Pos() >= f.FileEnd {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ft, ok := n.(*ast.FuncType)
			if !ok || ft.Results == nil {
				return !found
			}
			for _, field := range ft.Results.List {
				for _, name := range field.Names {
					found = found || si.pass.TypesInfo.Defs[name] == v
				}
			}
			return !found
		})
	}
	return found
}

// ownFieldAssigned reports whether the use of a local at stack[i] is the
// target of an assignment (or ++, --) into the local's own storage,
// through fields without a pointer on the way (v.F = x, v.F.G++): it
// changes the local, not what the local's references point to.
func (si refs) ownFieldAssigned(stack []ast.Node, i int) bool {
	j := i
	for j > 0 {
		switch p := stack[j-1].(type) {
		case *ast.ParenExpr:
			j--
			continue
		case *ast.SelectorExpr:
			s := si.pass.TypesInfo.Selections[p]
			if p.X == stack[j] && s != nil && s.Kind() == types.FieldVal && !s.Indirect() {
				j--
				continue
			}
		}
		break
	}
	if j == i || j == 0 {
		return false
	}
	switch p := stack[j-1].(type) {
	case *ast.AssignStmt:
		return p.Tok != token.DEFINE && isLHS(p, stack[j])
	case *ast.IncDecStmt:
		return true
	}
	return false
}
