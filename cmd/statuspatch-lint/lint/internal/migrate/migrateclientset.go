package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// A helper's call may name a client reached through fields of the
// reconciler (r.dock.c) that the caller sets between its read and the
// call: a sub-reconciler built lazily, `if r.dock == nil { r.dock =
// &dock{c: r.Client} }`, as kubebuilder's controller test needs, which
// never calls SetupWithManager. The patcher made at the read would
// evaluate r.dock.c before it is set: at d6546153 -fix wrote
// NewPortStatusPatcher(r.status.c, port) above the lazy init, and the
// project's test, passing before, panicked on a nil pointer (issue 80,
// subreconciler-lazy-field-nil). The patcher is made instead after the
// statement that sets the client last, in a block around the call: there
// its client is the value the call would have used, on every path.

// clientFields is the fields the client expression e followed by rest
// (".c") selects: status and c of r.status.c.
func (pl *place) clientFields(e ast.Expr, rest string) []*types.Var {
	var fs []*types.Var
	for sel, ok := ast.Unparen(e).(*ast.SelectorExpr); ok; sel, ok = ast.Unparen(sel.X).(*ast.SelectorExpr) {
		if s := pl.pass.TypesInfo.Selections[sel]; s != nil && s.Kind() == types.FieldVal {
			if v, ok := s.Obj().(*types.Var); ok {
				fs = append(fs, v)
			}
		}
	}
	t := pl.pass.TypesInfo.TypeOf(e)
	for name := range strings.SplitSeq(strings.TrimPrefix(rest, "."), ".") {
		if name == "" || t == nil {
			continue
		}
		obj, _, _ := types.LookupFieldOrMethod(t, true, pl.pass.Pkg, name)
		v, _ := obj.(*types.Var)
		if v == nil {
			break
		}
		fs = append(fs, v)
		t = v.Type()
	}
	return fs
}

// setsField reports whether n assigns one of fs, or takes its address.
func (pl *place) setsField(n ast.Node, fs []*types.Var) bool {
	is := func(e ast.Expr) bool {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		s := pl.pass.TypesInfo.Selections[sel]
		for _, f := range fs {
			if s != nil && s.Obj() == f {
				return true
			}
		}
		return false
	}
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				found = found || is(l)
			}
		case *ast.UnaryExpr:
			found = found || n.Op == token.AND && is(n.X)
		}
		return !found
	})
	return found
}

// clientFieldSet is where the last statement of pl's function between
// from and to sets a field the client e and rest select: an assignment,
// its address taken, or a call of a function of the package that assigns
// it (r.ensureDock()). NoPos when none does.
func (pl *place) clientFieldSet(e ast.Expr, rest string, from, to token.Pos) token.Pos {
	fs := pl.clientFields(e, rest)
	if len(fs) == 0 {
		return token.NoPos
	}
	root, ok := pl.cursor(pl.enclosingFunc())
	if !ok {
		return token.NoPos
	}
	at := token.NoPos
	for cur := range root.Preorder((*ast.AssignStmt)(nil), (*ast.UnaryExpr)(nil), (*ast.CallExpr)(nil)) {
		n := cur.Node()
		if n.Pos() < from || n.End() > to {
			continue
		}
		if call, ok := n.(*ast.CallExpr); ok {
			if fd := pl.funcDecl(kube.CalledFunc(pl.pass, call)); fd == nil || fd.Body == nil || !pl.setsField(fd.Body, fs) {
				continue
			}
		} else if !pl.setsField(n, fs) {
			continue
		}
		at = max(at, n.Pos())
	}
	return at
}

// clientSetAfterRead moves c's anchor, the read the patcher of a
// helper's call is made at, past the statement that sets the call's
// client last (clientFieldSet), when that statement is in a block around
// the call and nothing uses the object between the read and its end. It
// returns the line the client is set at (0 when no statement sets it),
// or why the patcher cannot be made where its client is set.
func clientSetAfterRead(c *migration, e ast.Expr, rest string, line int) (int, string) {
	at := c.clientFieldSet(e, rest, c.anchor.End(), c.call.Pos())
	if !at.IsValid() {
		return 0, ""
	}
	setLine := c.pass.Fset.Position(at).Line
	client := types.ExprString(e) + rest
	if c.baseVar != nil && !c.keep {
		return setLine, fmt.Sprintf("its call at line %d names its client %s, set at %s after the base the patcher is made from", line, client, c.where(at))
	}
	var after ast.Stmt
	for _, list := range c.enclosingLists() {
		for _, s := range list {
			if s.Pos() <= at && at < s.End() && s.End() <= c.call.Pos() && s.Pos() >= c.anchor.End() {
				after = s
			}
		}
		if after != nil {
			break
		}
	}
	if after == nil {
		return setLine, fmt.Sprintf("its call at line %d names its client %s, set at %s in a statement around the call: the patcher, made at the read, would be made before its client is set", line, client, c.where(at))
	}
	used := token.NoPos
	for cur := range c.usesOf(c.enclosingFunc(), c.obj, c.anchor.End(), after.End()) {
		used = cur.Node().Pos()
		break
	}
	if used.IsValid() {
		return setLine, fmt.Sprintf("its call at line %d names its client %s, set at %s, and %s is used at %s between its read and there: the patcher is made where its client is set only when nothing uses %s before", line, client, c.where(at), c.obj.Name(), c.where(used), c.obj.Name())
	}
	c.anchor = after
	return setLine, ""
}
