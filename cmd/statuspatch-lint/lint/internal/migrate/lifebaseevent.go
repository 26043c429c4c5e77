package migrate

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

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
	if call := w.soleCall(n); call != nil && w.keepsStatus(call) || w.readsMetaOnly(n) {
		return untouched
	}
	return w.l.event(n)
}

// readsMetaOnly reports whether n uses the object only as the receiver
// of ObjectMeta's getters whose value cannot reach into it: a basic value
// (GetName, GetGeneration), or a timestamp compared (the tutorial's
// `obj.GetDeletionTimestamp() != nil`), which life.event takes for calls
// that may change it.
func (w baseWindow) readsMetaOnly(n ast.Node) bool {
	l := w.l
	found, only := false, true
	ast.Inspect(n, func(x ast.Node) bool {
		id, ok := x.(*ast.Ident)
		if !only || !ok || l.si.pass.TypesInfo.Uses[id] != l.obj {
			return only
		}
		found = true
		only = w.metaGetter(id)
		return false
	})
	return found && only
}

// metaGetter reports whether id, the object, is the receiver of a call
// of an ObjectMeta method Get... with no arguments whose result is a
// basic value, or a pointer compared with ==, != (a timestamp with nil).
func (w baseWindow) metaGetter(id *ast.Ident) bool {
	cur, ok := w.l.si.cursor(id)
	if !ok || cur.ParentEdgeKind() != edge.SelectorExpr_X {
		return false
	}
	sel := cur.Parent().Node().(*ast.SelectorExpr)
	call, ok := cur.Parent().Parent().Node().(*ast.CallExpr)
	if !ok || call.Fun != sel || len(call.Args) != 0 {
		return false
	}
	fn, _ := w.l.si.pass.TypesInfo.Uses[sel.Sel].(*types.Func)
	if fn == nil || !strings.HasPrefix(fn.Name(), "Get") || fn.Signature().Results().Len() != 1 {
		return false
	}
	if recv := kube.NamedOf(fn.Signature().Recv().Type()); recv == nil || recv.Obj().Name() != "ObjectMeta" || recv.Obj().Pkg() == nil || recv.Obj().Pkg().Path() != metav1Path {
		return false
	}
	switch t := fn.Signature().Results().At(0).Type(); t.Underlying().(type) {
	case *types.Basic:
		return true
	case *types.Pointer:
		b, ok := cur.Parent().Parent().Parent().Node().(*ast.BinaryExpr)
		return ok && (b.Op == token.EQL || b.Op == token.NEQ)
	}
	return false
}

// soleCall is the call a statement node n is, alone or assigned to
// variables that are not the object (err := c.Update(ctx, obj)).
func (w baseWindow) soleCall(n ast.Node) *ast.CallExpr {
	l := w.l
	var e ast.Expr
	switch s := n.(type) {
	case *ast.CallExpr:
		e = s // an if's condition: if controllerutil.AddFinalizer(obj, f) {
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
	var at int
	switch {
	case w.writesOutside(call):
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
// or an if's init), ending before the base; for call an if's condition,
// whether its body's first statement is.
func (w baseWindow) savedNext(call *ast.CallExpr) bool {
	l := w.l
	cur, ok := l.si.cursor(call)
	if !ok {
		return false
	}
	saves := func(s ast.Stmt) bool {
		if is, ok := s.(*ast.IfStmt); ok && is.Init != nil {
			s = is.Init
		}
		write := w.soleCall(s)
		return write != nil && w.writesOutside(write) && l.is(write.Args[1])
	}
	if cur.ParentEdgeKind() == edge.IfStmt_Cond {
		// if controllerutil.AddFinalizer(obj, f) { c.Update(ctx, obj) ... }:
		// saved first thing where it changed the list.
		is := cur.Parent().Node().(*ast.IfStmt)
		return is.Init == nil && len(is.Body.List) > 0 && is.End() <= w.base.Pos() && saves(is.Body.List[0])
	}
	for stmt := range cur.Enclosing() {
		if stmt.ParentEdgeKind() != edge.BlockStmt_List && stmt.ParentEdgeKind() != edge.CaseClause_Body {
			continue
		}
		next, ok := stmt.NextSibling()
		return ok && next.Node().End() <= w.base.Pos() && saves(next.Node().(ast.Stmt))
	}
	return false
}

// writesOutside reports whether call is a client's Update or Patch (not
// of the status subresource) with an object argument.
func (w baseWindow) writesOutside(call *ast.CallExpr) bool {
	verb := w.l.si.clientWrite(call)
	return (verb == "Update" || verb == "Patch") && len(call.Args) > 1
}
