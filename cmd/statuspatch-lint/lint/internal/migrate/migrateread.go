package migrate

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// The copy of a read: obj := old.DeepCopy(), where old was read just
// before, unchanged since, by c.Get(ctx, key, old) in the function or by a
// getter of the package that only reads it (getter.go's shape below). The
// object then holds exactly what the server stored at its resourceVersion,
// the base an Update of obj sends that resourceVersion with: the patcher
// is made from obj after the copy.

// copyOfRead reports whether s is obj := old.DeepCopy() (or obj =
// old.DeepCopy()) with old read, unchanged, before s in list.
func (m reads) copyOfRead(list []ast.Stmt, i int) bool {
	as, ok := list[i].(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return false
	}
	if id, ok := as.Lhs[0].(*ast.Ident); !ok || m.pass.TypesInfo.ObjectOf(id) != m.obj {
		return false
	}
	call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "DeepCopy" {
		return false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return false
	}
	old, _ := m.pass.TypesInfo.Uses[id].(*types.Var)
	if old == nil || !types.Identical(old.Type(), m.obj.Type()) {
		return false
	}
	read := &migration{site: m.site, obj: old}
	for j := i - 1; j >= 0; j-- {
		if read.reads().isGetStmt(list[j]) || read.reads().isGetterStmt(list[j]) {
			return read.reads().unchangedBetween(list[j].End(), as.Pos())
		}
	}
	return false
}

// isGetterStmt reports whether s is obj, err := getter(...) (or =) where
// getter is a function of the package of the reading shape.
func (m reads) isGetterStmt(s ast.Stmt) bool {
	as, ok := s.(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
		return false
	}
	if id, ok := as.Lhs[0].(*ast.Ident); !ok || m.pass.TypesInfo.ObjectOf(id) != m.obj {
		return false
	}
	call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := kube.CalledFunc(m.pass, call)
	return fn != nil && fn.Pkg() == m.pass.Pkg && m.isReadingGetter(fn)
}

// returnsNilFirst reports whether body is one return statement whose first
// result is nil.
func returnsNilFirst(body *ast.BlockStmt) bool {
	if len(body.List) != 1 {
		return false
	}
	ret, ok := body.List[0].(*ast.ReturnStmt)
	return ok && len(ret.Results) == 2 && isNil(ret.Results[0])
}

func isNil(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && id.Name == "nil"
}

// unchangedBetween reports whether every use of m.obj in its function
// between from and to only reads a field of it.
func (m reads) unchangedBetween(from, to token.Pos) bool {
	field := func(sel *ast.SelectorExpr) bool {
		s := m.pass.TypesInfo.Selections[sel]
		return s != nil && s.Kind() == types.FieldVal
	}
	for c := range m.usesOf(m.enclosingFunc(), m.obj, from, to) {
		if sel, ok := c.Parent().Node().(*ast.SelectorExpr); !ok || sel.X != c.Node() || !field(sel) {
			return false
		}
		top := chainTop(c, field)
		e := top.Node()
		switch p := top.Parent().Node().(type) {
		case *ast.SelectorExpr:
			return false // a method of a field may change it
		case *ast.AssignStmt:
			if isLHS(p, e) {
				return false
			}
		case *ast.IncDecStmt:
			return false
		case *ast.RangeStmt:
			if p.X != e {
				return false
			}
		case *ast.UnaryExpr:
			if p.Op == token.AND {
				return false
			}
		}
	}
	return true
}
