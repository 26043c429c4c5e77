package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// An apply in a helper whose configuration names the helper's parameter
// (cybozu-go/accurate's reconcileNS),
//
//	func (r *R) reconcileNS(ctx context.Context, sn *v1.SubNamespace) error {
//		ac := v1ac.SubNamespace(sn.Name, sn.Namespace).WithStatus(...)
//		return r.Status().Apply(ctx, ac, fieldOwner, client.ForceOwnership)
//	}
//
// moves as a merge-mode helper does (migratehelper.go), by the same rules:
// the helper takes the patcher, each caller makes it in apply mode after
// its Get of the object it passes, and the write becomes ApplyStatus then
// Flush. On top of the merge move's rules, apply mode's: the object is
// only read between each caller's Get and its call and in the helper
// before the write (reachingUses), the caller's object is the one its Get
// reads (not a copy), the field owner is a constant or variable of the
// package that every caller sees, and neither the helper nor a caller
// makes another status write.

// applyHelper recognises an apply in a function declaration whose
// configuration names (name) the function's parameter, a pointer to kind:
// it sets m.obj, m.apply and m.helper, and reports whether it did.
func applyHelper(m *migration, name ast.Expr, kind string, ac ast.Expr, owner fieldOwner) bool {
	if name == nil {
		return false
	}
	id, ok := kube.RootIdent(name)
	if !ok {
		return false
	}
	v, ok := m.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok {
		return false
	}
	if _, ptr := types.Unalias(v.Type()).(*types.Pointer); !ptr {
		return false
	}
	if n := kube.NamedOf(v.Type()); n == nil || n.Obj().Name() != kind {
		return false
	}
	fd, ok := m.enclosingFunc().(*ast.FuncDecl)
	if !ok || fd.Body == nil || m.paramOf(v) != fd.Name.Name {
		return false
	}
	m.obj = v
	m.apply = &applyMove{migration: m, ac: ac, owner: owner}
	m.helper = &helperMove{migration: m, decl: fd}
	return true
}

// checkApplyHelper returns why the helper's body may change its object
// before the write (apply mode: reads only), or makes another status
// write, or why its field owner is not one its callers can name.
func (h *helperMove) checkApplyHelper(ws []*Write, files Files) string {
	fd := h.decl
	for _, o := range ws {
		if call, ok := files.Calls[o.Lparen]; ok && call != h.call && fd.Pos() <= call.Pos() && call.End() <= fd.End() {
			return fmt.Sprintf("%s also writes a status at line %d: move them by hand", fd.Name.Name, h.pass.Fset.Position(call.Pos()).Line)
		}
	}
	if why := h.apply.reachingUses(fd, fd.Body.Pos(), h.call.Pos()); why != "" {
		return why
	}
	if why := ownerPackageLevel(h.pass, h.apply.owner); why != "" {
		return "its " + why
	}
	return ""
}

// checkApplyCaller returns why caller c (its anchor the Get findGet found)
// cannot make the patcher in apply mode: its object is a copy of a read,
// the field owner is shadowed where it is made, or its object may change
// between the Get and the call (or is aliased before the Get).
func (h *helperMove) checkApplyCaller(c *migration) string {
	if c.get == nil {
		return c.obj.Name() + " is a copy of a read: the patcher is made from the object the Get reads"
	}
	if why := ownerShadowed(h.apply.owner, c); why != "" {
		return why
	}
	ca := &applyMove{migration: c}
	if why := c.checks().checkBefore(ca.applyUses, false); why != "" {
		return why
	}
	return ca.reachingUses(c.enclosingFunc(), c.anchor.End(), c.call.Pos())
}

// reachingUses is applyUses for the uses in fn between from and to that
// may run before to: a use in a block that lies after from, holds no
// break, continue, goto or fallthrough, and ends in a return, leaves the
// function without reaching to (accurate's Reconcile hands the object to
// its finalizer in such a block). A block inside a function literal
// returns from the literal only: its uses are checked. A deferred
// literal of fn that does not hold to runs as fn returns, after to: its
// uses do not reach to (issue 80 B1: the tutorial's deferred error
// condition kept its apply, "changed at line N", N in the literal).
func (a *applyMove) reachingUses(fn ast.Node, from, to token.Pos) string {
	return a.eachUse(fn, a.obj, from, to, func(stack []ast.Node, id *ast.Ident) string {
		for i, n := range stack[1:] {
			if lit, ok := n.(*ast.FuncLit); ok {
				if deferredLit(stack, i+1) && (to < lit.Pos() || to >= lit.End()) {
					return ""
				}
				break
			}
			if list := stmtList(n); list != nil && n.Pos() > from && (to < n.Pos() || to >= n.End()) && returnsOnly(list) {
				return ""
			}
		}
		if why := a.refs().useProblem(stack, a.obj); why != "" {
			return why
		}
		return a.statusChange(stack)
	})
}

// stmtList returns the statements of a block or of a case clause.
func stmtList(n ast.Node) []ast.Stmt {
	switch n := n.(type) {
	case *ast.BlockStmt:
		return n.List
	case *ast.CaseClause:
		return n.Body
	case *ast.CommClause:
		return n.Body
	}
	return nil
}

// returnsOnly reports whether list ends in a return statement and holds
// no branch statement (outside function literals) that could leave it
// another way.
func returnsOnly(list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	if _, ok := list[len(list)-1].(*ast.ReturnStmt); !ok {
		return false
	}
	branch := false
	for _, s := range list {
		ast.Inspect(s, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.BranchStmt:
				branch = true
			}
			return !branch
		})
	}
	return !branch
}
