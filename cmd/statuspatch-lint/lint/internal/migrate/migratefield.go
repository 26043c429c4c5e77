package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
)

// An object held in a field of a struct (cluster-api's per-reconcile
// scope: Reconcile reads r.Get(ctx, key, scope.Machine) and hands scope to
// reconcileNormal, which writes scope.Machine, or m := scope.Machine) is
// not followed from its Get: -fix makes a patcher at a Get into a
// variable. The reason names the field and the Get that reads into it, where the
// patcher is to be made.

// fieldWhy is why a write of the object taken from a struct field stays:
// expr is the field's selector (s.Widget), name the written variable when
// it is one (w := s.Widget), "" when the write names the field itself. It
// is "" when expr is not a struct field.
func fieldWhy(m reads, expr ast.Expr, name string) string {
	sel, ok := ast.Unparen(expr).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	s, ok := m.pass.TypesInfo.Selections[sel]
	if !ok || s.Kind() != types.FieldVal {
		return ""
	}
	field, _ := s.Obj().(*types.Var)
	if field == nil {
		return ""
	}
	const how = "-fix makes a patcher at a Get into a variable, not into a struct field"
	fn, get := fieldGet(m, field.Origin())
	if get == nil {
		if name == "" {
			return "" // a field set from a variable (a sub-reconciler's literal): "is not a variable"
		}
		return fmt.Sprintf("%s is %s, a struct field no Get of this package reads into: %s; make New%s where %s is read, keep it beside %s, and call its Flush(ctx) here",
			name, types.ExprString(sel), how, m.patcherType, field.Name(), field.Name())
	}
	at := fmt.Sprintf("read with Get in %s (%s)", fn, m.where(get.Pos()))
	subject := "the object " + types.ExprString(sel) + " is the struct field " + field.Name() + ", " + at
	if name != "" {
		subject = name + " is " + types.ExprString(sel) + ", and the struct field " + field.Name() + " is " + at
	}
	return fmt.Sprintf("%s: %s; make New%s after that Get, keep it beside %s, and call its Flush(ctx) here",
		subject, how, m.patcherType, field.Name())
}

// fieldGet is the first c.Get(ctx, key, x.F) of the package whose object
// is the field F, and the name of the function holding it, or nil.
func fieldGet(m reads, field *types.Var) (string, *ast.CallExpr) {
	for _, f := range m.pass.Files {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			var found *ast.CallExpr
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if found != nil || !ok || len(call.Args) != 3 || m.clientWrite(call) != "Get" {
					return found == nil
				}
				sel, ok := ast.Unparen(call.Args[2]).(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if s, ok := m.pass.TypesInfo.Selections[sel]; ok && s.Kind() == types.FieldVal {
					if v, _ := s.Obj().(*types.Var); v != nil && v.Origin() == field {
						found = call
					}
				}
				return found == nil
			})
			if found != nil {
				name := fd.Name.Name
				if fn, _ := m.pass.TypesInfo.Defs[fd.Name].(*types.Func); fn != nil {
					name = funcName(fn, m.pass.Pkg)
				}
				return name, found
			}
		}
	}
	return "", nil
}
