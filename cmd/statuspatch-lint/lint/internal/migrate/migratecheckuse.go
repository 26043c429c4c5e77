package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// checkUses checks the uses of v in root between from and to. A call of a
// function of the package that takes v as an argument is checked, in turn,
// for its uses of that parameter, up to a few calls deep.
func (m checks) checkUses(root ast.Node, v *types.Var, from, to token.Pos, depth int) string {
	return m.eachUse(root, v, from, to, func(stack []ast.Node, id *ast.Ident) string {
		return m.checkUse(root, stack, id, v, to, depth)
	})
}

// checkUse is checkUses of one use of v, the last node of stack (id, or
// nil when the use is an expression that is the object: a holder's
// field, params.Obj, paramsheldstruct.go).
func (m checks) checkUse(root ast.Node, stack []ast.Node, id *ast.Ident, v *types.Var, to token.Pos, depth int) string {
	stack, e := addressed(stack, v)
	if ok, why := m.held().use(stack, v); ok {
		return why // a holder of it (paramsheld.go)
	}
	if ok, why := (structHeld{m}).use(stack, v, depth); ok {
		return why // a holder of a concrete type (paramsheldstruct.go)
	}
	if call, ok := stack[len(stack)-2].(*ast.CallExpr); ok {
		ok, inner := m.checkCallee(call, e, depth)
		if ok || m.allowedCall(call, e, v) || depth == 0 && id != nil && e == ast.Expr(id) && m.callbackArg(call, id) {
			return ""
		}
		line := m.where(e.Pos())
		fn := kube.CalledFunc(m.pass, call)
		switch {
		case fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == controllerutilPath && changesFinalizers[fn.Name()]:
			return fmt.Sprintf("controllerutil.%s changes the finalizers of %s at %s, and no later Update or Patch of %s in the same block saves them",
				fn.Name(), v.Name(), line, v.Name())
		case inner != "":
			// Say where, inside the function, it goes wrong.
			return fmt.Sprintf("%s is passed to %s at %s, where %s", v.Name(), m.refs().callee(call), line, inner)
		case depth == 1 && m.compose && isStatusWrite(call) && len(call.Args) > 1 && call.Args[1] == e:
			return "" // the helper's write: it takes the caller's patcher
		case depth > 0 && isStatusWrite(call):
			return fmt.Sprintf("its status is written at %s, a write -fix does not move with the caller's", line)
		}
	}
	if id != nil && e == ast.Expr(id) {
		if ok, why := m.checkAlias(root, stack, v, to, depth); ok {
			return why // the same object in a new local (migrateassert.go)
		}
	}
	return m.refs().useProblem(stack, v)
}
