package migrate

import (
	"go/ast"

	"golang.org/x/tools/go/ast/edge"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// A merge patch's base taken after the object's own write outside its
// status: kubebuilder's deploy-image Reconcile reads the object, adds its
// finalizer and Updates it, then takes base := obj.DeepCopy() for its
// status patch. The status is still what the read gave (the Update sends
// none, and its answer is the server's object at a newer resourceVersion),
// so a patcher made at the read holds the base: its Flush re-bases on the
// caller's own write when the status the server holds is still its base's
// (patcher's syncBase), and is a Conflict otherwise. Taken for a change
// there (life.event), the base made a patcher of its own beside the
// read's, two patchers of one object: the read's, flushed by a deferred
// failure write after the second's Retry stored, met that store as
// another writer's and returned a Conflict, the failure condition lost.

// baseWindow is a life asked about the window from a read to a merge
// patch's base, taken at the statement base.
type baseWindow struct {
	l    *life
	base ast.Stmt
}

// event is life.event for a base's freshness (baseAtRead): a client's
// Update or Patch of the object (not its status), and a finalizer change
// that the next statement of its block saves so, before the base, leave
// it untouched. A change saved later (allowedCall's savedLater) is not:
// at the patch, the read's patcher would hold it unsaved, a change
// outside the status its Flush refuses (patcher.ErrNonStatusChange).
func (w baseWindow) event(n ast.Node) event {
	if call := w.soleCall(n); call != nil && w.keepsStatus(call) {
		return untouched
	}
	return w.l.event(n)
}

// soleCall is the call a statement node n is, alone or assigned to
// variables that are not the object (err := c.Update(ctx, obj)).
func (w baseWindow) soleCall(n ast.Node) *ast.CallExpr {
	l := w.l
	var e ast.Expr
	switch s := n.(type) {
	case *ast.ExprStmt:
		e = s.X
	case *ast.AssignStmt:
		if len(s.Rhs) != 1 {
			return nil
		}
		for _, x := range s.Lhs {
			if l.rooted(x) || l.isVia(x) {
				return nil
			}
		}
		e = s.Rhs[0]
	}
	call, _ := ast.Unparen(e).(*ast.CallExpr)
	return call
}

// keepsStatus reports whether call writes the object outside its status
// with its client, or changes its finalizers for such a write later in
// the block; the object is in none of its other arguments.
func (w baseWindow) keepsStatus(call *ast.CallExpr) bool {
	l := w.l
	at := -1
	switch verb := l.si.clientWrite(call); {
	case (verb == "Update" || verb == "Patch") && len(call.Args) > 1:
		at = 1
	default:
		fn := kube.CalledFunc(l.si.pass, call)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != controllerutilPath || !changesFinalizers[fn.Name()] ||
			len(call.Args) != 2 || !w.savedNext(call) {
			return false
		}
		at = 0
	}
	if !l.is(call.Args[at]) || l.mentions(call.Fun) {
		return false
	}
	for i, a := range call.Args {
		if i != at && l.mentions(a) {
			return false
		}
	}
	return true
}

// savedNext reports whether the statement after the one holding call in
// its block is a client's Update or Patch of the object (alone, assigned
// or an if's init), ending before the base.
func (w baseWindow) savedNext(call *ast.CallExpr) bool {
	l := w.l
	cur, ok := l.si.cursor(call)
	if !ok {
		return false
	}
	for stmt := range cur.Enclosing() {
		if stmt.ParentEdgeKind() != edge.BlockStmt_List && stmt.ParentEdgeKind() != edge.CaseClause_Body {
			continue
		}
		next, ok := stmt.NextSibling()
		if !ok || next.Node().End() > w.base.Pos() {
			return false
		}
		s := next.Node().(ast.Stmt)
		if is, ok := s.(*ast.IfStmt); ok && is.Init != nil {
			s = is.Init
		}
		write := w.soleCall(s)
		if write == nil {
			return false
		}
		verb := l.si.clientWrite(write)
		return (verb == "Update" || verb == "Patch") && len(write.Args) > 1 && l.is(write.Args[1])
	}
	return false
}
