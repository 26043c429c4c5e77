package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"
)

// The object held as a value (kubebuilder's tutorial: var cronJob
// batchv1.CronJob, r.Get(ctx, key, &cronJob), r.Status().Update(ctx,
// &cronJob)): the model's object is the variable cronJob, and the code
// passes it as &cronJob wherever the pointer form passes cronJob. The
// patcher is made over &cronJob, so it holds the variable itself, no copy:
// the changes the code makes to cronJob are the patcher's object's, and
// each write is its Flush as in the pointer form.

// objText is the object obj's pointer as the code passes it: obj, or &obj of
// a value.
func objText(obj *types.Var) string {
	if valueObj(obj) {
		return "&" + obj.Name()
	}
	return obj.Name()
}

// passesObj reports whether e is the object obj's pointer: obj, or &obj of a
// value.
func passesObj(info *types.Info, obj *types.Var, e ast.Expr) bool {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND && valueObj(obj) {
		e = ast.Unparen(u.X)
	}
	id, ok := e.(*ast.Ident)
	return ok && info.Uses[id] == obj
}

// valueCopy: a value object copied whole into a new local (before :=
// cronJob, var before = cronJob). The copy is another object, but it
// shares what the value's fields point to (maps, slices, pointers): its
// uses are checked as the object's, so a change through it of what they
// share is seen.
func valueCopy(info *types.Info, stack []ast.Node) (*types.Var, ast.Node, string, bool) {
	n := len(stack)
	if n < 2 {
		return nil, nil, "", false
	}
	id, ok := stack[n-1].(*ast.Ident)
	if v, _ := info.Uses[id].(*types.Var); !ok || !valueObj(v) {
		return nil, nil, "", false
	}
	var lhs ast.Expr
	switch p := stack[n-2].(type) {
	case *ast.AssignStmt:
		if len(p.Rhs) != 1 || p.Rhs[0] != id || len(p.Lhs) != 1 {
			return nil, nil, "", false
		}
		if l, ok := p.Lhs[0].(*ast.Ident); p.Tok != token.DEFINE && (p.Tok != token.ASSIGN || !ok || l.Name != "_") {
			return nil, nil, "", false // _ = v copies it nowhere
		}
		lhs = p.Lhs[0]
	case *ast.ValueSpec:
		if len(p.Values) != 1 || p.Values[0] != id || len(p.Names) != 1 {
			return nil, nil, "", false
		}
		lhs = p.Names[0]
	default:
		return nil, nil, "", false
	}
	l, ok := lhs.(*ast.Ident)
	if !ok {
		return nil, nil, "", false
	}
	if l.Name == "_" {
		return nil, stack[n-2], "copied", true
	}
	v, _ := info.Defs[l].(*types.Var)
	return v, stack[n-2], "copied into " + l.Name, v != nil
}

// copyBaseWhy says why a merge patch whose base is &x, x a whole copy of
// the value object (base := cronJob, client.MergeFrom(&base)), stays: the
// copy shares the object's slices and maps, so a change made in place
// through them (meta.SetStatusCondition of an existing condition) is in
// the base too, and the handwritten patch leaves it out, where the
// patcher's base, a DeepCopy, would send it. "" when e is not such a base.
func copyBaseWhy(pl *place, obj *types.Var, e ast.Expr) string {
	v := addrOfVar(pl.pass.TypesInfo, e)
	def, val := pl.definition(v)
	if def == nil || !passesObj(pl.pass.TypesInfo, obj, val) || !valueObj(obj) {
		return ""
	}
	return fmt.Sprintf("the base &%s is the address of %s, a copy of the value %s made at %s: it shares %s's slices and maps, so a change made in place through them is in the base too and this patch leaves it out, where the patcher, whose base is a DeepCopy, would send it; take the base with %s.DeepCopy() for -fix to move the write",
		v.Name(), v.Name(), obj.Name(), pl.where(def.Pos()), obj.Name(), obj.Name())
}

// addrBaseWhy says why a merge patch whose base is &x, x a local value
// that is not a whole copy of the object (base := *obj.DeepCopy()),
// stays: -fix follows a base held as a pointer. "" when e is not &x.
func addrBaseWhy(info *types.Info, obj *types.Var, e ast.Expr) string {
	v := addrOfVar(info, e)
	if v == nil {
		return ""
	}
	return fmt.Sprintf("the base &%s is the address of the value %s, and -fix follows a base held as a pointer: take %s := %s.DeepCopy() and MergeFrom(%s) for it to move the write",
		v.Name(), v.Name(), v.Name(), obj.Name(), v.Name())
}

// addrOfVar is x when e is &x of a variable x, else nil.
func addrOfVar(info *types.Info, e ast.Expr) *types.Var {
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return nil
	}
	id, ok := ast.Unparen(u.X).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := info.Uses[id].(*types.Var)
	return v
}

// literalFlush reports whether a write of the patcher made at anchor
// (with the re-reads assigned to it) is in a function literal of g's
// function, as a deferred one is: a Fetch assigned to that patcher's
// variable goes to a variable of its own first (fetchPlan.onSuccess),
// assigned when it succeeds. A failed one returns a nil patcher, and the
// literal, run on that error's return, would flush nil (ErrNilPatcher,
// the read's error and the literal's write lost) where the Update wrote.
func literalFlush(group []*migration, g *migration, anchor ast.Stmt) bool {
	root := reuseRoots(group)
	fn, ok := g.cursor(g.enclosingFunc())
	if !ok {
		return true
	}
	for _, h := range group {
		if root(h.anchor) != root(anchor) {
			continue
		}
		c, ok := g.cursor(h.call)
		if !ok {
			return true
		}
		for e := range c.Enclosing((*ast.FuncLit)(nil)) {
			if fn.Contains(e) {
				return true
			}
		}
	}
	return false
}

// receiverHeld reports whether the write c takes its patcher when a
// statement of root runs, not when it is called: the call of a defer
// statement, or code in a go statement.
func receiverHeld(root, c inspector.Cursor) bool {
	if d, ok := c.Parent().Node().(*ast.DeferStmt); ok && d.Call == c.Node() {
		return true
	}
	for e := range c.Enclosing((*ast.GoStmt)(nil)) {
		return root.Contains(e)
	}
	return false
}

// sameBlockFunc reports whether s is in the block holding decl (so in
// scope of what decl declares) and in the same function, not in a
// function literal inside it.
func (pl *place) sameBlockFunc(decl, s ast.Stmt) bool {
	b := pl.block(decl)
	if b == nil || s.Pos() < b.Pos() || s.End() > b.End() {
		return false
	}
	c, ok := pl.cursor(s)
	if !ok {
		return false
	}
	for e := range c.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		return e.Node() == pl.enclosingFunc()
	}
	return false
}
