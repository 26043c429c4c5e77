package migrate

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// An unstructured object's u.SetGroupVersionKind(gvk) gives its kind
// (migrateapplyunstructured.go) when gvk is constant: a
// schema.GroupVersionKind{Group: ..., Version: ..., Kind: ...} literal of
// constants, or gv.WithKind(constant) with gv a package's GroupVersion
// (kubebuilder's groupversion_info.go), a schema.GroupVersion{...}
// literal of constants, or a local defined by one and only read after.

const schemaPkgPath = "k8s.io/apimachinery/pkg/runtime/schema"

// groupVersionKind returns the kind of a constant GroupVersionKind, and
// records its apiVersion's origin.
func (b *unstructuredBuild) groupVersionKind(pass *analysis.Pass, e ast.Expr) (string, bool) {
	if fields, ok := schemaLiteral(pass, e, "GroupVersionKind"); ok {
		return fields["Kind"], fields["Kind"] != ""
	}
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(c.Args) != 1 {
		return "", false
	}
	s, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	if !ok || s.Sel.Name != "WithKind" {
		return "", false
	}
	k, ok := stringConst(pass, c.Args[0])
	if !ok || k == "" {
		return "", false
	}
	if _, ok := schemaLiteral(pass, s.X, "GroupVersion"); ok || b.constantLocal(pass, s.X) {
		return k, true
	}
	return k, b.apiVersion(pass, s.X) == ""
}

// schemaLiteral returns the fields of a literal of schema's type name
// whose every field is a string constant.
func schemaLiteral(pass *analysis.Pass, e ast.Expr, name string) (map[string]string, bool) {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		return nil, false
	}
	n, ok := types.Unalias(pass.TypesInfo.TypeOf(lit)).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != schemaPkgPath || n.Obj().Name() != name {
		return nil, false
	}
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return nil, false
	}
	fields := map[string]string{}
	for i, elt := range lit.Elts {
		field, val := "", elt
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			id, _ := kv.Key.(*ast.Ident)
			if id == nil {
				return nil, false
			}
			field, val = id.Name, kv.Value
		} else if i < st.NumFields() {
			field = st.Field(i).Name()
		}
		s, ok := stringConst(pass, val)
		if !ok {
			return nil, false
		}
		fields[field] = s
	}
	return fields, true
}

// constantLocal reports whether e names a local of the function defined
// by a constant schema.GroupVersion literal and only read after: each
// other use calls a method of a value receiver on it.
func (b *unstructuredBuild) constantLocal(pass *analysis.Pass, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || b.body == nil {
		return false
	}
	v, _ := pass.TypesInfo.Uses[id].(*types.Var)
	if v == nil || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() || v.Pos() < b.body.Pos() || v.Pos() >= b.body.End() {
		return false
	}
	body, found := b.insp.Root().FindNode(b.body)
	if !found {
		return false
	}
	defined := false
	for c := range body.Preorder((*ast.Ident)(nil)) {
		id := c.Node().(*ast.Ident)
		switch {
		case pass.TypesInfo.Defs[id] == v:
			if defined = definedBySchemaLiteral(pass, c.Parent().Node(), id); !defined {
				return false
			}
		case pass.TypesInfo.Uses[id] == v:
			if !readByMethod(pass, stackFrom(b.body, c)) {
				return false
			}
		}
	}
	return defined
}

// definedBySchemaLiteral reports whether parent defines id alone, by a
// constant schema.GroupVersion literal (gv := ..., var gv = ...).
func definedBySchemaLiteral(pass *analysis.Pass, parent ast.Node, id *ast.Ident) bool {
	var value ast.Expr
	switch p := parent.(type) {
	case *ast.AssignStmt:
		if p.Tok != token.DEFINE || len(p.Lhs) != 1 || len(p.Rhs) != 1 || p.Lhs[0] != id {
			return false
		}
		value = p.Rhs[0]
	case *ast.ValueSpec:
		if len(p.Names) != 1 || len(p.Values) != 1 {
			return false
		}
		value = p.Values[0]
	default:
		return false
	}
	_, ok := schemaLiteral(pass, value, "GroupVersion")
	return ok
}

// readByMethod reports whether the identifier last in stack is the
// receiver of a method call whose receiver is a value: it reads it.
func readByMethod(pass *analysis.Pass, stack []ast.Node) bool {
	if len(stack) < 3 {
		return false
	}
	sel, ok := stack[len(stack)-2].(*ast.SelectorExpr)
	if !ok || sel.X != stack[len(stack)-1] {
		return false
	}
	if call, ok := stack[len(stack)-3].(*ast.CallExpr); !ok || ast.Unparen(call.Fun) != sel {
		return false
	}
	s := pass.TypesInfo.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal {
		return false
	}
	sig, ok := s.Obj().Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	_, ptr := sig.Recv().Type().(*types.Pointer)
	return !ptr
}
