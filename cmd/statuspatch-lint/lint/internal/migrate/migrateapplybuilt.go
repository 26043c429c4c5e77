package migrate

import (
	"fmt"
	"go/ast"
	"go/types"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// A Patch whose object and patch one call returns together (trust-manager's
// bundle.Reconcile:
//
//	con, patch, err := ssa_client.GenerateBundleStatusPatch(req.Name, statusPatch)
//	err = b.client.Status().Patch(ctx, con, patch, ssa_client.FieldManager, client.ForceOwnership)
//
// ) writes an object the function never read: the patcher, whose lock is
// the read the status was decided from, has nothing to be made from here.
// It stays, and the finding says so; when a value given to the builder is
// the result of a function of the package that reads the kind with Get
// (statusPatch, b.reconcileBundle's result, decided from its Get), it names
// that Get: the patcher would be made there and handed out, a change of
// that function's results -fix does not make.

// builtPatch reads a Patch whose object a call returns with its patch.
type builtPatch struct{ *migration }

// builtObjectWhy says why a Patch of an object a call returns with its
// patch stays; "" for another write, or one whose function reads the
// kind with Get (the shapes after this one say why it stays).
func (m builtPatch) builtObjectWhy(kind string) string {
	if len(m.call.Args) < 3 || m.insp == nil {
		return ""
	}
	patch, ok := ast.Unparen(m.call.Args[2]).(*ast.Ident)
	if !ok {
		return ""
	}
	built := m.patchByCall(usedVar(m.pass, patch))
	if built == nil || len(kube.FetchedObjects(m.pass, m.call, kind)) > 0 {
		return ""
	}
	obj, ok := ast.Unparen(m.call.Args[1]).(*ast.Ident)
	if !ok || !m.definedBy(usedVar(m.pass, obj), built) {
		return ""
	}
	fd := kube.EnclosingFunc(m.pass, m.call.Pos())
	if fd == nil {
		return ""
	}
	builder := types.ExprString(built.Fun)
	why := fmt.Sprintf("%s, the %s written, is returned with the patch by %s at %s, not read with Get in %s: the patcher is made from a read of the object (its lock), the read the status was decided from",
		obj.Name, kind, builder, m.where(built.Pos()), fd.Name.Name)
	for _, a := range built.Args {
		if id, ok := ast.Unparen(a).(*ast.Ident); ok {
			why += m.decidedBy(usedVar(m.pass, id), builder, kind)
		}
	}
	return m.shapeWhy(why + "; move it by hand")
}

// definedBy reports whether v is defined by the assignment of call's
// results.
func (m builtPatch) definedBy(v *types.Var, call *ast.CallExpr) bool {
	as := m.assignOf(call)
	if v == nil || as == nil {
		return false
	}
	for _, l := range as.Lhs {
		if id, ok := l.(*ast.Ident); ok && m.pass.TypesInfo.Defs[id] == v {
			return true
		}
	}
	return false
}

// assignOf returns the assignment whose one right-hand side is call.
func (m builtPatch) assignOf(call *ast.CallExpr) *ast.AssignStmt {
	cur, ok := m.insp.Root().FindNode(call)
	if !ok {
		return nil
	}
	as, ok := cur.Parent().Node().(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 {
		return nil
	}
	return as
}

// decidedBy says, for v given to the builder, the function of the package
// whose result defines it and its Get of the kind: "; v, given to
// builder, is returned by G at line L, which reads the kind with Get at
// line N: ...". "" when v is not such a result.
func (m builtPatch) decidedBy(v *types.Var, builder, kind string) string {
	if v == nil {
		return ""
	}
	cur, ok := m.insp.Root().FindByPos(v.Pos(), v.Pos()+1)
	if !ok {
		return ""
	}
	as, ok := cur.Parent().Node().(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 {
		return ""
	}
	call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	if !ok {
		return ""
	}
	fn := kube.CalledFunc(m.pass, call)
	if fn == nil || fn.Pkg() != m.pass.Pkg {
		return ""
	}
	get := m.getOfKind(fn, kind)
	if get == nil {
		return ""
	}
	return fmt.Sprintf("; %s, given to %s, is returned by %s at %s, which reads the %s with Get at %s: the patcher would be made there and handed out of %s, changing its results",
		v.Name(), builder, types.ExprString(call.Fun), m.where(call.Pos()), kind, m.where(get.Pos()), fn.Name())
}

// getOfKind returns the first controller-runtime Get in fn's declaration
// whose object is of the kind, nil if none.
func (m builtPatch) getOfKind(fn *types.Func, kind string) *ast.CallExpr {
	for c := range m.insp.Root().Preorder((*ast.FuncDecl)(nil)) {
		fd := c.Node().(*ast.FuncDecl)
		if m.pass.TypesInfo.Defs[fd.Name] != fn || fd.Body == nil {
			continue
		}
		for cc := range c.Preorder((*ast.CallExpr)(nil)) {
			call := cc.Node().(*ast.CallExpr)
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Get" || len(call.Args) < 3 {
				continue
			}
			if get, ok := m.pass.TypesInfo.Uses[sel.Sel].(*types.Func); !ok || get.Pkg() == nil || get.Pkg().Path() != kube.ClientPkgPath {
				continue
			}
			if n := kube.NamedOf(m.pass.TypesInfo.TypeOf(call.Args[2])); n != nil && n.Obj().Name() == kind {
				return call
			}
		}
	}
	return nil
}
