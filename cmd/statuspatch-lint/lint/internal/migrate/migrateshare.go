package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// A reference into the object's spec assigned into its own status
// (karpenter's cb.Status.ProvisioningStrategy =
// cb.Spec.ProvisioningStrategy, a *string): the status and the spec share
// the pointer, and a change through the status's copy would change the
// spec. The patcher writes what the handwritten write wrote when nothing
// writes through it before the write: every use of the object from the
// assignment to the write (the loops around either, whole) is a field
// chain that only reads where it reaches the shared place (x, x.Status,
// x.Status.P and below: chainChange finds no change there), or the write
// itself; no method of the object is called, it is passed to nothing else
// and used in no function literal; no holder of it is made before (a
// literal's field, a function whose fact Holds it); and the function has
// no goto. Else the write stays, naming the use.

// shares judges a reference into the object shared with its own status
// by the rule above.
type shares struct{ *site }

// statusShare judges e, a reference into the object x rooted at the same
// variable as lhs, assigned to lhs, a place in x's status, by as: ok when
// the rule above holds (why "" then), or why it does not; applies is
// false when the rule does not apply (lhs not in x's status, e not of x,
// no write of x in the same function).
func (si shares) statusShare(as *ast.AssignStmt, lhs, e ast.Expr) (applies bool, why string) {
	x, path := si.fieldPath(lhs)
	if x == nil || len(path) < 2 || path[0] != "Status" || si.call == nil {
		return false, ""
	}
	if rx, _ := si.fieldPath(e); rx != x {
		return false, ""
	}
	if !slices.ContainsFunc(si.call.Args, func(a ast.Expr) bool { return si.usesVar(a, x) }) {
		return false, ""
	}
	cur, ok := si.cursor(as)
	wcur, wok := si.cursor(si.call)
	if !ok || !wok {
		return false, ""
	}
	fn := enclosingFn(cur)
	if fn.Node() == nil || enclosingFn(wcur) != fn {
		return false, ""
	}
	shared := types.ExprString(lhs)
	for c := range fn.Preorder((*ast.BranchStmt)(nil)) {
		if c.Node().(*ast.BranchStmt).Tok == token.GOTO {
			return true, fmt.Sprintf("%s shares the pointer of %s, and the function has a goto at %s", shared, types.ExprString(e), si.where(c.Node().Pos()))
		}
	}
	from, to := outerLoop(cur, fn).Node().Pos(), outerLoop(wcur, fn).Node().End()
	if from == ast.Node(as).Pos() {
		from = as.End()
	}
	for c := range si.usesOf(fn.Node(), x, fn.Node().Pos(), fn.Node().End()) {
		id := c.Node().(*ast.Ident)
		if enclosingFn(c) != fn {
			return true, fmt.Sprintf("%s shares the pointer of %s, and %s is used in the function literal at %s, which may write through it", shared, types.ExprString(e), x.Name(), si.where(id.Pos()))
		}
		stack := stackFrom(fn.Node(), c)
		if id.Pos() < as.Pos() {
			if w := si.holderMade(stack, x); w != "" {
				return true, fmt.Sprintf("%s shares the pointer of %s, and %s", shared, types.ExprString(e), w)
			}
		}
		if id.Pos() < from || id.Pos() >= to || id.Pos() >= as.Pos() && id.Pos() < as.End() || id.Pos() >= si.call.Pos() && id.Pos() < si.call.End() {
			continue
		}
		if w := si.sharedUse(stack, path); w != "" {
			return true, fmt.Sprintf("%s shares the pointer of %s at %s, and %s, which may write through it", shared, types.ExprString(e), si.where(as.Pos()), w)
		}
	}
	return true, ""
}

// sharedUse says what the use of the object (the last node of stack)
// may do to the place path of it that shares a pointer, "" if it only
// reads there or does not reach it.
func (si shares) sharedUse(stack []ast.Node, path []string) string {
	i := len(stack) - 1
	line := si.where(stack[i].Pos())
	name := stack[i].(*ast.Ident).Name
	k := 0 // how many of path's selections the chain follows
	for {
		sel, ok := stack[i-1].(*ast.SelectorExpr)
		if !ok || sel.X != stack[i] {
			break
		}
		s := si.pass.TypesInfo.Selections[sel]
		if s == nil || s.Kind() != types.FieldVal {
			return fmt.Sprintf("%s is called at %s", types.ExprString(sel), line)
		}
		if k < len(path) && sel.Sel.Name != path[k] {
			return "" // another field: the uses' own rules judge it
		}
		if k < len(path) {
			k++
		}
		i--
	}
	if i == len(stack)-1 {
		return fmt.Sprintf("%s is passed on at %s", name, line)
	}
	if direct, how := si.refs().chainChange(stack, i); direct || how != "" {
		return fmt.Sprintf("%s is used at %s", types.ExprString(stack[i].(ast.Expr)), line)
	}
	return ""
}

// holderMade says where the use of x at the end of stack makes a value
// that holds it (a literal's field, an argument or receiver of a function
// whose ParamsFact Holds it), "" if it does not.
func (si shares) holderMade(stack []ast.Node, x *types.Var) string {
	i := len(stack) - 1
	line := si.where(stack[i].Pos())
	switch p := stack[i-1].(type) {
	case *ast.KeyValueExpr, *ast.CompositeLit:
		return fmt.Sprintf("%s is put in a literal at %s", x.Name(), line)
	case *ast.CallExpr:
		if arg := slices.Index(p.Args, stack[i].(ast.Expr)); arg >= 0 && si.holdsArg(p, arg) {
			return fmt.Sprintf("what the call at %s returns holds %s", line, x.Name())
		}
	case *ast.SelectorExpr:
		if call, ok := stack[i-2].(*ast.CallExpr); ok && call.Fun == p && si.holdsArg(call, -1) {
			return fmt.Sprintf("what %s returns at %s holds %s", types.ExprString(p), line, x.Name())
		}
	}
	return ""
}

// holdsArg reports whether the function call calls has a ParamsFact
// whose Holds is its argument arg (-1: the receiver).
func (si shares) holdsArg(call *ast.CallExpr, arg int) bool {
	fn := kube.CalledFunc(si.pass, call)
	var fact ParamsFact
	if fn == nil || !si.pass.ImportObjectFact(fn.Origin(), &fact) {
		return false
	}
	return slices.ContainsFunc(fact.Holds, func(h Held) bool { return h.Index == arg })
}

// fieldPath is the variable e's chain of field selections starts at, and
// the fields selected (x.Status.P: x, [Status P]); indexes end the path.
func (si shares) fieldPath(e ast.Expr) (*types.Var, []string) {
	var path []string
	for {
		switch n := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			if s := si.pass.TypesInfo.Selections[n]; s == nil || s.Kind() != types.FieldVal {
				return nil, nil
			}
			path = append([]string{n.Sel.Name}, path...)
			e = n.X
		case *ast.IndexExpr:
			path = nil
			e = n.X
		case *ast.StarExpr:
			e = n.X
		case *ast.Ident:
			v, _ := si.pass.TypesInfo.Uses[n].(*types.Var)
			return v, path
		default:
			return nil, nil
		}
	}
}

// usesVar reports whether e is x, or &x.
func (si shares) usesVar(e ast.Expr, x *types.Var) bool {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && si.pass.TypesInfo.Uses[id] == x
}

// enclosingFn is the innermost function declaration or literal around c.
func enclosingFn(c inspector.Cursor) inspector.Cursor {
	for f := range c.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		return f
	}
	return inspector.Cursor{}
}

// outerLoop is the outermost for or range statement around c inside fn,
// or c itself when there is none.
func outerLoop(c, fn inspector.Cursor) inspector.Cursor {
	loop := c
	for p := range c.Enclosing((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		if p == fn {
			break
		}
		switch p.Node().(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			loop = p
		}
	}
	return loop
}
