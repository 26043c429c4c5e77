package migrate

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// A server-side apply of the status from a typed object, the route before
// controller-runtime v0.23's Status().Apply (v0.22's status writer has no
// Apply):
//
//	var w v1.Widget
//	if err := r.Get(ctx, req.NamespacedName, &w); err != nil { ... }
//	applied := &v1.Widget{TypeMeta: ..., ObjectMeta: metav1.ObjectMeta{Name: w.Name, Namespace: w.Namespace}}
//	applied.Status.Summary = ...
//	err := r.Status().Patch(ctx, applied, client.Apply, client.FieldOwner("o"), client.ForceOwnership)
//
// moves onto the patcher's apply mode as an apply configuration does
// (migrateapply.go): the patcher is made after the Get of the object the
// literal names (its ObjectMeta's Name is the fetched object's name or its
// key's), the typed status goes to ApplyStatus (it marshals as the typed
// apply sent it; the patcher sends the status alone, with the base's
// resourceVersion), and the write becomes the Flush.

// typedApplyWhy is why a typed apply that is not a new object built in the
// function stays.
const typedApplyWhy = ": -fix moves a server-side apply of the typed object (client.Apply) when the object is a new one built in this function (a composite literal of the kind whose ObjectMeta names an object fetched with Get); make the patcher with patcher.WithWriteMode(patcher.WriteApply) where the object is read, give the status to ApplyStatus and Flush it in place of the write, by hand"

// prepareTypedApply recognises an apply of a new typed object and sets
// m.obj, m.anchor and m.apply, or returns why it cannot move.
func (m *migration) prepareTypedApply(kind string) string {
	owner, why := optionsOf(&m.place, 3).apply()
	if why != "" {
		return m.shapeWhy(why)
	}
	arg := ast.Unparen(m.call.Args[1])
	if u, ok := arg.(*ast.UnaryExpr); ok && u.Op == token.AND {
		arg = ast.Unparen(u.X) // &applied, a value
	}
	id, ok := arg.(*ast.Ident)
	if !ok {
		return m.shapeWhy("the applied " + types.ExprString(m.call.Args[1]) + " is not a variable" + typedApplyWhy)
	}
	v, _ := m.pass.TypesInfo.Uses[id].(*types.Var)
	fetched := kube.FetchedObjects(m.pass, m.call, kind)
	for _, f := range fetched {
		if f.Obj == v {
			return m.shapeWhy(id.Name + " is the object read with Get, applied whole (its resourceVersion and managedFields with it)" + typedApplyWhy)
		}
	}
	_, val := m.definition(v)
	lit := typedLiteral(val)
	if lit == nil {
		return m.shapeWhy(id.Name + " is not a new " + kind + " built in this function (a composite literal)" + typedApplyWhy)
	}
	name := literalName(lit)
	if name == nil {
		return m.shapeWhy("the new " + kind + " " + id.Name + " is given no ObjectMeta Name in its literal" + typedApplyWhy)
	}
	named := kube.NamedByName(m.pass, name, kube.FetchedObjects(m.pass, lit, kind))
	return m.applyFrom(named, name, kind, id.Name, id, owner)
}

// typedLiteral returns the composite literal of &T{...} or T{...}.
func typedLiteral(e ast.Expr) *ast.CompositeLit {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	lit, _ := ast.Unparen(e).(*ast.CompositeLit)
	return lit
}

// literalName returns the Name given in a literal's ObjectMeta:
// T{ObjectMeta: metav1.ObjectMeta{Name: x, ...}}.
func literalName(lit *ast.CompositeLit) ast.Expr {
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if k, ok := kv.Key.(*ast.Ident); !ok || k.Name != "ObjectMeta" {
			continue
		}
		meta := typedLiteral(kv.Value)
		if meta == nil {
			return nil
		}
		for _, f := range meta.Elts {
			if kv, ok := f.(*ast.KeyValueExpr); ok {
				if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Name" {
					return kv.Value
				}
			}
		}
	}
	return nil
}
