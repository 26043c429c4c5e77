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
func (m *migration) copyOfRead(list []ast.Stmt, i int) bool {
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
		if read.isGetStmt(list[j]) || read.isGetterStmt(list[j]) {
			return read.unchangedBetween(list[j].End(), as.Pos())
		}
	}
	return false
}

// isGetterStmt reports whether s is obj, err := getter(...) (or =) where
// getter is a function of the package of the reading shape.
func (m *migration) isGetterStmt(s ast.Stmt) bool {
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
func (m *migration) unchangedBetween(from, to token.Pos) bool {
	ok := true
	var stack []ast.Node
	ast.Inspect(m.enclosingFunc(), func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		id, isID := n.(*ast.Ident)
		if !ok || !isID || id.Pos() < from || id.Pos() >= to || m.pass.TypesInfo.Uses[id] != m.obj {
			return ok
		}
		i := len(stack) - 1
		sel, isSel := stack[i-1].(*ast.SelectorExpr)
		if !isSel || sel.X != id {
			ok = false
			return false
		}
		if s := m.pass.TypesInfo.Selections[sel]; s == nil || s.Kind() != types.FieldVal {
			ok = false
			return false
		}
		top := i - 1
		for top > 0 {
			switch p := stack[top-1].(type) {
			case *ast.SelectorExpr:
				if p.X != stack[top] {
					return true
				}
				if s := m.pass.TypesInfo.Selections[p]; s == nil || s.Kind() != types.FieldVal {
					ok = false // a method of a field may change it
					return false
				}
			case *ast.IndexExpr:
				if p.X != stack[top] {
					return true
				}
			case *ast.ParenExpr, *ast.StarExpr:
			default:
				switch p := p.(type) {
				case *ast.AssignStmt:
					ok = !isLHS(p, stack[top])
				case *ast.IncDecStmt:
					ok = false
				case *ast.RangeStmt:
					ok = p.X == stack[top]
				case *ast.UnaryExpr:
					ok = p.Op != token.AND
				}
				return ok
			}
			top--
		}
		return ok
	})
	return ok
}
