package migrate

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// What reads the status in a write's decision (migrateretry.go): the
// "decided from status" row of retryShapes, and the note of a decision
// left before a Flush (migrateretrynote.go).

// statusRead reports whether nodes read v's status other than to set
// it, themselves or in a function of the package v is handed to (a
// phase function: r.phasePlan(obj) deciding from obj.Status.Plan).
func (r retries) statusRead(nodes []ast.Node, v *types.Var, seen map[*types.Func]bool) bool {
	for _, s := range nodes {
		if r.eachUse(s, v, s.Pos(), s.End(), func(stack []ast.Node, id *ast.Ident) string {
			if readsStatusAt(r, stack, id, seen) {
				return "found"
			}
			return ""
		}) != "" {
			return true
		}
	}
	return false
}

// readsStatusAt reports whether the use id, at the end of stack, reads
// its object's status other than to set it (statusRead).
func readsStatusAt(r retries, stack []ast.Node, id *ast.Ident, seen map[*types.Func]bool) bool {
	if len(stack) < 3 {
		return false
	}
	if call, ok := stack[len(stack)-2].(*ast.CallExpr); ok {
		p, body := r.calleeParam(call, id, seen)
		return p != nil && r.statusRead([]ast.Node{body}, p, seen)
	}
	sel, ok := stack[len(stack)-2].(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Status" {
		return false
	}
	top, changed := changedAt(stack, len(stack)-2)
	if changed {
		if u, ok := stack[top-1].(*ast.UnaryExpr); !ok || u.Op != token.AND {
			return false // set
		}
		if call, ok := stack[max(top-2, 0)].(*ast.CallExpr); ok && isSetter(r, call) {
			return false // a setter given its address
		}
	}
	return true
}

// calleeParam returns the parameter of the package's function call
// passes id as, and its body; nil for another call or one followed
// already.
func (r retries) calleeParam(call *ast.CallExpr, id *ast.Ident, seen map[*types.Func]bool) (*types.Var, ast.Node) {
	fn := kube.CalledFunc(r.pass, call)
	if fn == nil || fn.Pkg() != r.pass.Pkg || seen[fn] || call.Ellipsis.IsValid() {
		return nil, nil
	}
	fd := r.funcDecl(fn)
	if fd == nil || fd.Body == nil {
		return nil, nil
	}
	var params []*ast.Ident
	for _, f := range fd.Type.Params.List {
		params = append(params, f.Names...)
	}
	for i, a := range call.Args {
		if a == ast.Expr(id) && i < len(params) {
			seen[fn] = true
			p, _ := r.pass.TypesInfo.Defs[params[i]].(*types.Var)
			if p == nil {
				return nil, nil
			}
			return p, fd.Body
		}
	}
	return nil, nil
}

// isSetter reports whether call only sets what it is given the address
// of, from its other arguments: apimachinery's meta.SetStatusCondition
// and meta.RemoveStatusCondition.
func isSetter(r retries, call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	fn, ok := r.pass.TypesInfo.Uses[sel.Sel].(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == "k8s.io/apimachinery/pkg/api/meta" &&
		(fn.Name() == "SetStatusCondition" || fn.Name() == "RemoveStatusCondition")
}
