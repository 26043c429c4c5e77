package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// A method called on a scope (s.Close(ctx)) may re-read its object with
// Get or put a new one in its field: the patcher made after the caller's
// Get would then not hold what the helper writes. The call leaves the
// object as read only when the method's body, in the package, uses its
// receiver only to read the scope's other fields.

// scopeMethod says why path, a use of a scope s whose object is its field
// f, may change the object through a method of s: s.M whose body is not
// in the package, or does more than read fields of s other than f.
func scopeMethod(pl *migration, path []ast.Node, f *types.Var) string {
	sel, ok := path[1].(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	selection := pl.pass.TypesInfo.Selections[sel]
	if selection == nil || selection.Kind() == types.FieldVal {
		return ""
	}
	verb := "taken as a value"
	if call, ok := path[min(2, len(path)-1)].(*ast.CallExpr); ok && call.Fun == sel {
		verb = "called"
	}
	at := fmt.Sprintf("%s is %s at %s", types.ExprString(sel), verb, pl.where(sel.Pos()))
	fn, _ := selection.Obj().(*types.Func)
	fd := (*ast.FuncDecl)(nil)
	if fn != nil && len(selection.Index()) == 1 {
		fd = pl.funcDecl(fn)
	}
	if fd == nil || fd.Body == nil {
		return fmt.Sprintf("%s, a method whose body is not in the package: it may change or re-read %s", at, f.Name())
	}
	if !readsOtherFields(pl, fd, f) {
		return fmt.Sprintf("%s, a method whose body does more than read fields of %s other than %s (%s)", at, types.ExprString(sel.X), f.Name(), pl.where(fd.Pos()))
	}
	return ""
}

// readsOtherFields reports whether method fd uses its receiver only to
// read fields of it other than f, directly (not promoted).
func readsOtherFields(pl *migration, fd *ast.FuncDecl, f *types.Var) bool {
	if fd.Recv == nil || len(fd.Recv.List) != 1 {
		return false
	}
	if len(fd.Recv.List[0].Names) == 0 {
		return true // an unnamed receiver is not used
	}
	recv := pl.pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]]
	if recv == nil {
		return true // _
	}
	for cur := range pl.usesOf(fd.Body, recv, fd.Body.Pos(), fd.Body.End()) {
		path := pathOf(cur)
		sel, ok := path[1].(*ast.SelectorExpr)
		if !ok || sel.X != path[0] {
			return false
		}
		s := pl.pass.TypesInfo.Selections[sel]
		if s == nil || s.Kind() != types.FieldVal || s.Obj() == f || len(s.Index()) != 1 {
			return false
		}
		i := 1
		for i+1 < len(path) {
			switch next := path[i+1].(type) {
			case *ast.SelectorExpr:
				if next.X == path[i] {
					i++
					continue
				}
			case *ast.IndexExpr:
				if next.X == path[i] {
					i++
					continue
				}
			case *ast.StarExpr, *ast.ParenExpr:
				i++
				continue
			}
			break
		}
		switch p := path[i+1].(type) {
		case *ast.AssignStmt:
			if isLHS(p, path[i]) {
				return false
			}
		case *ast.IncDecStmt:
			return false
		case *ast.UnaryExpr:
			if p.Op == token.AND {
				return false
			}
		case *ast.RangeStmt:
			if p.Key == path[i] || p.Value == path[i] {
				return false
			}
		}
	}
	return true
}
