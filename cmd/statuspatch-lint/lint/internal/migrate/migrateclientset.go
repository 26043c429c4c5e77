package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
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
// (".c") selects, outermost first: status and c of r.status.c.
func (pl *place) clientFields(e ast.Expr, rest string) []*types.Var {
	var fs []*types.Var
	for sel, ok := ast.Unparen(e).(*ast.SelectorExpr); ok; sel, ok = ast.Unparen(sel.X).(*ast.SelectorExpr) {
		if s := pl.pass.TypesInfo.Selections[sel]; s != nil && s.Kind() == types.FieldVal {
			if v, ok := s.Obj().(*types.Var); ok {
				fs = append(fs, v)
			}
		}
	}
	slices.Reverse(fs)
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

// clientFieldSet is where the last statement of si's function between
// the end of from and to sets a field the client e and rest select, or
// its package variable (defaultDock.c: set lazily, as a field is), NoPos
// when none does (setWalk), and setWalk.unknown. In a loop around
// to not around from (loopAround), a set after to counts too: the next
// pass reaches to after it. set is where the code at sets it, and loop
// that loop, or nil.
func (si *site) clientFieldSet(e ast.Expr, rest string, from ast.Node, to *ast.CallExpr) (at, set token.Pos, loop ast.Node, unknown string) {
	fs, v := si.clientFields(e, rest), rootVar(si.pass.TypesInfo, e)
	if v != nil && v.Parent() != si.pass.Pkg.Scope() && !si.localSetAside(v) {
		v = nil // set only by its function's own statements: clientAssigned's
	}
	root, ok := si.cursor(si.enclosingFunc())
	if !ok || len(fs) == 0 && v == nil {
		return token.NoPos, token.NoPos, nil, ""
	}
	w := newSetWalk(si, fs, v)
	if why := w.aliases(root); why != "" {
		return token.NoPos, token.NoPos, nil, why
	}
	loop = loopAround(root.Node(), to, from)
	end := to.Pos()
	if loop != nil {
		end = loop.End()
	}
	at, set = w.last(root, from.End(), end)
	return at, set, loop, w.unknown
}

// setWhere is "line N", and the line of the code a call at runs that
// sets the client (set), when that is elsewhere.
func (pl *place) setWhere(at, set token.Pos) string {
	if set != at {
		return fmt.Sprintf("%s (a call that sets it at %s)", pl.where(at), pl.where(set))
	}
	return pl.where(at)
}

// ownClientSet says why the helper fd, whose client is its receiver or
// parameter v and the fields after it (k.c), cannot take a patcher its
// callers make: it sets that client itself before its writes (if k.c ==
// nil { k.c = k.def }), so the client is its own to choose, and the
// patcher made with the caller's view of k.c holds another (nil: the
// patcher's Flush fails). "" when it does not.
func ownClientSet(h *helperMove, fd *ast.FuncDecl, v *types.Var) string {
	root, ok := h.cursor(fd)
	if !ok || fd.Body == nil {
		return ""
	}
	last := h.call
	for _, c := range h.also {
		if c.Pos() > last.Pos() {
			last = c
		}
	}
	end := last.Pos()
	w := newSetWalk(&h.site, h.clientFields(h.client, ""), v)
	if why := w.aliases(root); why != "" {
		return fmt.Sprintf("its client %s may be set before its write: %s", h.clientText, why)
	}
	walkEnd := end
	loop := loopAround(fd, last, nil)
	if loop != nil {
		walkEnd = loop.End() // a set after the write, before the next pass's
	}
	at, set := w.last(root, fd.Body.Pos(), walkEnd)
	if w.unknown != "" {
		return fmt.Sprintf("its client %s may be set before its write: %s", h.clientText, w.unknown)
	}
	if !at.IsValid() {
		return ""
	}
	where := h.setWhere(at, set)
	if at >= end {
		return fmt.Sprintf("it sets its client %s at %s after its write, in the loop at %s around it: its next pass writes through it, not through the client a patcher its callers make holds", h.clientText, where, h.where(loop.Pos()))
	}
	return fmt.Sprintf("it sets its client %s at %s, before its write: the client is its own to choose, and a patcher its callers make would hold their %s as it was before", h.clientText, where, h.clientText)
}

// clientSetAt moves c's anchor, the read the patcher of a
// helper's call is made at, past the statement that sets the call's
// client last (clientFieldSet), when that statement is in a block around
// the call and nothing uses the object between the read and its end. It
// returns the line the client is set at (0 when no statement sets it),
// or why the patcher cannot be made where its client is set.
func clientSetAt(c *migration, e ast.Expr, rest string, line int) (int, string) {
	at, set, loop, unknown := c.clientFieldSet(e, rest, c.anchor, c.call)
	client := types.ExprString(e) + rest
	if unknown != "" {
		return 0, fmt.Sprintf("its call at line %d names its client %s, which may be set after the read the patcher is made at: %s", line, client, unknown)
	}
	if !at.IsValid() {
		return 0, ""
	}
	setLine := c.pass.Fset.Position(at).Line
	if at >= c.call.Pos() {
		return setLine, fmt.Sprintf("its call at line %d names its client %s, set at %s after the call, in the loop at %s around it: the next pass's call writes through it, and the patcher, made at the read before the loop, would hold the client as it was before", line, client, c.setWhere(at, set), c.where(loop.Pos()))
	}
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

// A sub-reconciler's client may be the manager's plain one while the
// reconciler's is patcher.ForManager's (statuspatch-gen init wires
// r.Client = patcher.ForManager(mgr, ...) first in SetupWithManager and
// leaves r.ports = &portReconciler{c: mgr.GetClient()} as it was). The
// patcher -fix makes with r.ports.c then has no API reader: on a 409 its
// Retry reads the object again through the manager's cache, which may
// lag (the same 409 again, or ErrStaleCache), and the next reconcile
// decides again. -fix says so, naming where the field gets the plain
// client and what to write there; it does not rewrite it, as nothing in
// the write's function shows what else the field's client serves (its
// Gets, its Lists, writes of other kinds), and ForManager's client reads
// past the cache and carries r.Client's options (a field owner) for
// every patcher made from it.

// plainManagerClient is the note of a patcher made with the client e and
// rest select (r.ports and ".c") whose Retry reads obj again:
// "" unless a statement of the package sets that field to mgr.GetClient()
// in a function that sets a field to patcher.ForManager(mgr, ...), the
// same manager variable.
func plainManagerClient(pl *place, e ast.Expr, rest, obj string) string {
	chain := fieldChain(pl, e, rest)
	if len(chain) == 0 {
		return ""
	}
	for cur := range pl.insp.Root().Preorder((*ast.AssignStmt)(nil)) {
		as := cur.Node().(*ast.AssignStmt)
		if len(as.Lhs) != len(as.Rhs) {
			continue
		}
		for i, l := range as.Lhs {
			mgr, get := managerClientOf(pl, l, as.Rhs[i], chain)
			if mgr == nil {
				continue
			}
			for fd := range cur.Enclosing((*ast.FuncDecl)(nil)) {
				if set, fm := forManagerSet(pl, fd.Node().(*ast.FuncDecl), mgr); set != nil {
					return fmt.Sprintf("; its client %s is %s at %s, the manager's plain client, while %s is patcher.ForManager's at %s: on a 409 Retry reads %s again through the manager's cache, which may lag (the same 409 again, or ErrStaleCache), where ForManager's reads through the API reader, and the next reconcile decides again: give it patcher.ForManager(%s, ...) at %s",
						types.ExprString(e)+rest, types.ExprString(get), pl.where(get.Pos()), types.ExprString(set), pl.where(fm.Pos()), obj, mgr.Name(), pl.where(get.Pos()))
				}
				break
			}
		}
	}
	return ""
}

// fieldChain is the fields e and rest select, outermost first: moor and
// c of r.moor and ".c"; nil when e is not rooted at a variable.
func fieldChain(pl *place, e ast.Expr, rest string) []*types.Var {
	if rootVar(pl.pass.TypesInfo, e) == nil {
		return nil
	}
	return pl.clientFields(e, rest)
}

// managerClientOf reports whether l = v sets the client chain selects to
// m.GetClient() (r.moor.c = mgr.GetClient(), r.moor = &moor{c:
// mgr.GetClient()}): the manager variable m and the call, or nil. l's
// fields are a start of chain, each the same field: another
// reconciler's field of the same type (a.audit.c) is another client.
func managerClientOf(pl *place, l, v ast.Expr, chain []*types.Var) (*types.Var, *ast.CallExpr) {
	if _, ok := ast.Unparen(l).(*ast.SelectorExpr); !ok {
		return nil, nil
	}
	lc := fieldChain(pl, l, "")
	if len(lc) == 0 || len(lc) > len(chain) || !slices.Equal(lc, chain[:len(lc)]) {
		return nil, nil
	}
	for _, f := range chain[len(lc):] {
		if u, ok := ast.Unparen(v).(*ast.UnaryExpr); ok && u.Op == token.AND {
			v = u.X
		}
		switch x := ast.Unparen(v).(type) {
		case *ast.CompositeLit:
			v = literalField(pl.pass, x, f.Name())
		case *ast.CallExpr:
			v = ctorArg(pl, x, f) // newPorts(mgr.GetClient())
		default:
			v = nil
		}
		if v == nil {
			return nil, nil
		}
	}
	call, ok := ast.Unparen(v).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return nil, nil
	}
	get, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || get.Sel.Name != "GetClient" {
		return nil, nil
	}
	id, ok := ast.Unparen(get.X).(*ast.Ident)
	m, _ := pl.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || m == nil {
		return nil, nil
	}
	return m, call
}

// ctorArg is the argument call passes to the parameter that the
// package's function it calls keeps in the field f of what it returns
// (func newPorts(c client.Client) *ports { return &ports{c: c} }, or p.c
// = c): its one statement setting f sets it to that parameter, which the
// body never sets. nil otherwise.
func ctorArg(pl *place, call *ast.CallExpr, f *types.Var) ast.Expr {
	fn := kube.CalledFunc(pl.pass, call)
	if fn == nil || fn.Pkg() != pl.pass.Pkg || fn.Signature().Variadic() || fn.Signature().Results().Len() != 1 {
		return nil
	}
	fd := pl.funcDecl(fn)
	if fd == nil || fd.Body == nil || !hasField(fn.Signature().Results().At(0).Type(), f) {
		return nil
	}
	var vals []ast.Expr
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CompositeLit:
			if hasField(pl.pass.TypesInfo.TypeOf(n), f) {
				if x := literalField(pl.pass, n, f.Name()); x != nil {
					vals = append(vals, x)
				}
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
				if s := pl.pass.TypesInfo.Selections[sel]; ok && s != nil && s.Obj() == f {
					if len(n.Lhs) != len(n.Rhs) {
						vals = append(vals, nil)
					} else {
						vals = append(vals, n.Rhs[i])
					}
				}
			}
		}
		return true
	})
	if len(vals) != 1 || vals[0] == nil {
		return nil
	}
	id, ok := ast.Unparen(vals[0]).(*ast.Ident)
	p, _ := pl.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || p == nil {
		return nil
	}
	params := fn.Signature().Params()
	for i := range params.Len() {
		if params.At(i) != p || i >= len(call.Args) {
			continue
		}
		set := false
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				set = set || slices.ContainsFunc(n.Lhs, func(l ast.Expr) bool { return identOf(pl.pass, l) == p })
			case *ast.UnaryExpr:
				set = set || n.Op == token.AND && identOf(pl.pass, n.X) == p
			}
			return !set
		})
		if set {
			return nil
		}
		return call.Args[i]
	}
	return nil
}

// hasField reports whether t, or what it points to, is a struct with
// the field f.
func hasField(t types.Type, f *types.Var) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := types.Unalias(t).Underlying().(*types.Struct)
	return ok && slices.Contains(slices.Collect(st.Fields()), f)
}

// forManagerSet is the field fd sets to patcher.ForManager(mgr, ...) and
// that call, or nil.
func forManagerSet(pl *place, fd *ast.FuncDecl, mgr *types.Var) (ast.Expr, *ast.CallExpr) {
	if fd.Body == nil {
		return nil, nil
	}
	var set ast.Expr
	var fm *ast.CallExpr
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || set != nil || len(as.Lhs) != len(as.Rhs) {
			return set == nil
		}
		for i, r := range as.Rhs {
			call, ok := ast.Unparen(r).(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				continue
			}
			f := kube.CalledFunc(pl.pass, call)
			id, isID := ast.Unparen(call.Args[0]).(*ast.Ident)
			if _, isSel := ast.Unparen(as.Lhs[i]).(*ast.SelectorExpr); isSel && isID && f != nil && f.Name() == "ForManager" && f.Pkg() != nil && f.Pkg().Path() == kube.PatcherPkgPath && pl.pass.TypesInfo.Uses[id] == mgr {
				set, fm = as.Lhs[i], call
			}
		}
		return set == nil
	})
	return set, fm
}

// managerClientNote is plainManagerClient's note for the first call of
// callers whose patcher is made with its sub-reconciler's own client
// (not a patcher the caller passes, nor a link of a chain), "" for none.
func managerClientNote(h *helperMove, callers []*helperCaller) string {
	for _, hc := range callers {
		if hc.link != nil || hc.shared != "" {
			continue
		}
		for i, c := range hc.calls {
			if i < len(hc.clients) {
				if note := plainManagerClient(&c.place, hc.clients[i], hc.rests[i], h.obj.Name()); note != "" {
					return note
				}
			}
		}
	}
	return ""
}
