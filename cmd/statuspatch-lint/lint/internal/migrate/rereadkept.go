package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"iter"
	"slices"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// A function handed a pointer object before a re-read that keeps it past
// the call (advs117's funcval2.go): at the re-read, obj = p.Object()
// points obj to another object, while what the function kept goes on
// changing the one first read; the Get filled the very object the code
// holds, so the kept reference saw the re-read. Kept: the parameter
// captured by a function literal that may run after the call (a go
// statement's, one stored or returned), or the address of a field of it
// taken other than as a call's argument (st = &o.Status). A value object
// is read again into itself (or copied into its variable), which a kept
// reference goes on pointing to: nothing to check.

// identityKept is why the re-read get of m's object, a pointer, must
// stay a Get: before it, the address of a field of the object is kept
// (st := &obj.Status), or the object is given to a function of the
// package or a function value that keeps it (keptWhy). "" for a value.
func identityKept(m *migration, get ast.Stmt) string {
	fn := m.enclosingFunc()
	if fn == nil || valueObj(m.obj) {
		return ""
	}
	into := "Fetch<Kind>StatusPatcherInto"
	if n, ok := types.Unalias(m.obj.Type()).(*types.Pointer); ok {
		if named, ok := types.Unalias(n.Elem()).(*types.Named); ok {
			into = "Fetch" + named.Obj().Name() + "StatusPatcherInto"
		}
	}
	other := fmt.Sprintf("a Fetch would point %s to another object (%s reads into the object itself)", m.obj.Name(), into)
	for u := range m.usesOf(fn, m.obj, fn.Pos(), get.Pos()) {
		if e, ok := addressKept(u); ok {
			return fmt.Sprintf("the address of %s is taken at %s and kept, which would go on pointing into %s as first read, and %s",
				types.ExprString(e), m.where(e.Pos()), m.obj.Name(), other)
		}
		call, ok := u.Parent().Node().(*ast.CallExpr)
		if !ok || call.Fun == u.Node() {
			continue
		}
		i := slices.Index(call.Args, u.Node().(ast.Expr))
		for body, p := range argBodies(m, call, i) {
			if why := keptWhy(m, body, p); why != "" {
				return fmt.Sprintf("%s is given to %s at %s, where %s, and %s",
					m.obj.Name(), types.ExprString(call.Fun), m.where(call.Pos()), why, other)
			}
		}
	}
	return ""
}

// argBodies yields the body of each function call may run that has a
// body in the package (a function or method of it, or each function a
// function value may be), with its parameter i.
func argBodies(m *migration, call *ast.CallExpr, i int) iter.Seq2[*ast.BlockStmt, *types.Var] {
	return func(yield func(*ast.BlockStmt, *types.Var) bool) {
		var fts []*ast.FuncType
		var bodies []*ast.BlockStmt
		if fn := kube.CalledFunc(m.pass, call); fn != nil {
			if fd := m.funcDecl(fn); fd != nil {
				fts, bodies = append(fts, fd.Type), append(bodies, fd.Body)
			}
		} else if vals, _, ok := funcVals(m.refs()).funcValues(call); ok {
			for _, v := range vals {
				if ft, body, _ := funcVals(m.refs()).valueFunc(v); ft != nil {
					fts, bodies = append(fts, ft), append(bodies, body)
				}
			}
		}
		for k, ft := range fts {
			names := paramIdents(ft)
			if i < 0 || i >= len(names) || names[i] == nil {
				continue
			}
			p, _ := m.pass.TypesInfo.Defs[names[i]].(*types.Var)
			if !yield(bodies[k], p) {
				return
			}
		}
	}
}

// keptWhy is why the function whose body is body keeps its parameter p
// past the call: "" when its own body does not (what it hands on to
// other functions is checkFunc's).
func keptWhy(g *migration, body *ast.BlockStmt, p *types.Var) string {
	if body == nil || p == nil {
		return ""
	}
	for u := range g.usesOf(body, p, body.Pos(), body.End()) {
		for lit := range u.Enclosing((*ast.FuncLit)(nil)) {
			if lit.Node().Pos() <= body.Pos() {
				break // the function's own literal, or one around it
			}
			if !calledNow(lit) {
				return fmt.Sprintf("%s is captured at %s by the function literal at %s, which may run after the call: after the re-read it would change %s as first read",
					p.Name(), g.where(u.Node().Pos()), g.where(lit.Node().Pos()), p.Name())
			}
		}
		if e, ok := addressKept(u); ok {
			return fmt.Sprintf("the address of %s is taken at %s and kept: after the re-read it would point into %s as first read",
				types.ExprString(e), g.where(e.Pos()), p.Name())
		}
	}
	return ""
}

// calledNow reports whether the function literal at lit runs within the
// call of the function holding it: called where it is made, not by a go
// statement (a defer statement's runs before that function returns).
func calledNow(lit inspector.Cursor) bool {
	call, ok := lit.Parent().Node().(*ast.CallExpr)
	if !ok || ast.Unparen(call.Fun) != lit.Node() {
		if par, ok := lit.Parent().Node().(*ast.ParenExpr); ok {
			call, ok = lit.Parent().Parent().Node().(*ast.CallExpr)
			if !ok || call.Fun != ast.Expr(par) {
				return false
			}
			lit = lit.Parent()
		} else {
			return false
		}
	}
	_, goes := lit.Parent().Parent().Node().(*ast.GoStmt)
	return !goes
}

// addressKept is the expression whose address is taken at the use u, a
// field (or element) reached from it, &o.Status, when that address is
// not a call's argument.
func addressKept(u inspector.Cursor) (ast.Expr, bool) {
	cur := u
	for {
		switch x := cur.Parent().Node().(type) {
		case *ast.SelectorExpr:
			if x.X != cur.Node() {
				return nil, false
			}
		case *ast.IndexExpr:
			if x.X != cur.Node() {
				return nil, false
			}
		case *ast.ParenExpr:
		case *ast.UnaryExpr:
			if x.Op != token.AND || cur == u {
				return nil, false
			}
			if call, ok := cur.Parent().Parent().Node().(*ast.CallExpr); ok && call.Fun != ast.Expr(x) {
				return nil, false // given to a call: the callee's checks
			}
			return cur.Node().(ast.Expr), true
		default:
			return nil, false
		}
		cur = cur.Parent()
	}
}
