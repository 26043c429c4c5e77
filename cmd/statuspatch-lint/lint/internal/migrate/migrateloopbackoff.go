package migrate

import (
	"fmt"
	"go/ast"
	"go/types"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// A conflict loop's backoff is how Retry waits: retry.DefaultRetry and
// retry.DefaultBackoff are left to the patcher's default, as they were;
// a wait.Backoff of the code's own (openstack-hypervisor-operator's
// StatusPatchBackoff) is given to the patcher, patcher.WithBackoff(b),
// when the Fetch that takes the loop's place can name it: a variable, or
// a field of one, as the loop's call spells it (evaluated there, before
// the read, as the loop's argument was). Any other expression (a call,
// a literal) keeps the loop.

const waitPkgPath = "k8s.io/apimachinery/pkg/util/wait"

// loopBackoff sets l.backoff to the loop's own backoff, or says why it
// keeps the loop.
func (l *conflictLoop) loopBackoff() string {
	arg := l.call.Args[0]
	var id *ast.Ident
	switch e := ast.Unparen(arg).(type) {
	case *ast.Ident:
		id = e
	case *ast.SelectorExpr:
		id = e.Sel
	}
	if v, ok := l.pass.TypesInfo.Uses[id].(*types.Var); ok && v.Pkg() != nil && v.Pkg().Path() == "k8s.io/client-go/util/retry" && (v.Name() == "DefaultRetry" || v.Name() == "DefaultBackoff") {
		return ""
	}
	n := kube.NamedOf(l.pass.TypesInfo.TypeOf(arg))
	if n != nil && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == waitPkgPath && n.Obj().Name() == "Backoff" && l.namedValue(arg) {
		l.backoff = arg
		return ""
	}
	return fmt.Sprintf("whose backoff %s is not retry.DefaultRetry or retry.DefaultBackoff, nor a variable of type wait.Backoff (or a field of one) the patcher can be given with patcher.WithBackoff", types.ExprString(arg))
}

// namedValue reports whether e is a variable, a package's variable, or a
// field of one (no call, no index): what the Fetch in the loop's place
// names as the loop did.
func (l *conflictLoop) namedValue(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		_, ok := l.pass.TypesInfo.Uses[e].(*types.Var)
		return ok
	case *ast.SelectorExpr:
		if s := l.pass.TypesInfo.Selections[e]; s != nil {
			return s.Kind() == types.FieldVal && l.namedValue(e.X)
		}
		_, ok := l.pass.TypesInfo.Uses[e.Sel].(*types.Var) // pkg.Var
		return ok
	}
	return false
}
