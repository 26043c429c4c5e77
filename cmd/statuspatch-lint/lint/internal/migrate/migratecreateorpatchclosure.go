package migrate

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ast/inspector"
)

// Function values held in locals (s112): uses sees what a statement of
// the mutate does to the object by its own text, not what a function
// literal held in a variable does when the statement calls it (f := func()
// { w.Spec.Size = 3 }; ... f()) or hands it on (apply(f)): a status
// statement reading the spec moved after f() read the new value, and a
// literal changing the status was left in the mutate, its change sent by
// CreateOrPatch. Now the literals a statement may run through such a
// local are taken as part of it (callees): what they do to the object
// joins the statement's reads and sets, a status they change or read, or
// the object they hand on, keeps the write, and a moving statement
// running one that captures the object (or sets a variable of its own)
// keeps it too: in the Retry, it would reach the object CreateOrPatch
// had.

// A callee is a function literal a leaf may run: held by v, a local
// variable the leaf uses at at (calls it, or hands it on).
type callee struct {
	v   *types.Var
	at  *ast.Ident
	lit *ast.FuncLit
}

// how says how the leaf uses the callee's variable, naming the lines:
// f, called at line N, runs the literal at line M.
func (ce callee) how(cs *site) string {
	use, run := "handed on", "may run"
	p := mustCursor(cs, ce.at).Parent()
	if c, ok := p.Node().(*ast.CallExpr); ok && ast.Unparen(c.Fun) == ce.at {
		use, run = "called", "runs"
		if _, ok := p.Parent().Node().(*ast.DeferStmt); ok {
			use = "deferred"
		}
	}
	return fmt.Sprintf("%s, %s at %s, %s the literal at %s", ce.v.Name(), use, cs.where(ce.at.Pos()), run, cs.where(ce.lit.Pos()))
}

// funcLits is every local function variable of the function declaration
// around the call and the literals it may hold: given one, or given
// another such variable's (g := f), to a fixed point. Each variable's
// literals are in source order: the fixed point takes them in the order
// of a map's iteration, and callees' order names the literal a reason
// gives.
func funcLits(cs *site) map[*types.Var][]*ast.FuncLit {
	lits := map[*types.Var][]*ast.FuncLit{}
	var outer ast.Node
	for _, n := range cs.path {
		switch n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			outer = n
		}
	}
	fc, ok := cs.cursor(outer)
	if outer == nil || !ok {
		return lits
	}
	info := cs.pass.TypesInfo
	funcVar := func(e ast.Expr) *types.Var {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return nil
		}
		v, _ := info.ObjectOf(id).(*types.Var)
		if v == nil || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() {
			return nil
		}
		if _, ok := v.Type().Underlying().(*types.Signature); !ok {
			return nil
		}
		return v
	}
	from := map[*types.Var][]*types.Var{} // g := f: g holds f's
	link := func(l, r ast.Expr) {
		v := funcVar(l)
		if v == nil {
			return
		}
		if lit, ok := ast.Unparen(r).(*ast.FuncLit); ok {
			lits[v] = append(lits[v], lit)
		} else if u := funcVar(r); u != nil {
			from[v] = append(from[v], u)
		}
	}
	for c := range fc.Preorder((*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil)) {
		switch n := c.Node().(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i := range n.Lhs {
					link(n.Lhs[i], n.Rhs[i])
				}
			}
		case *ast.ValueSpec:
			if len(n.Names) == len(n.Values) {
				for i := range n.Names {
					link(n.Names[i], n.Values[i])
				}
			}
		}
	}
	for grew := true; grew; {
		grew = false
		for v, us := range from {
			for _, u := range us {
				for _, lit := range lits[u] {
					if !slices.Contains(lits[v], lit) {
						lits[v] = append(lits[v], lit)
						grew = true
					}
				}
			}
		}
	}
	for _, ls := range lits {
		slices.SortFunc(ls, func(a, b *ast.FuncLit) int { return cmp.Compare(a.Pos(), b.Pos()) })
	}
	return lits
}

// callees is every function literal outside n that n may run through a
// local variable: one it uses holds, and those their bodies may run, to
// a fixed point.
func callees(cs *site, lits map[*types.Var][]*ast.FuncLit, n ast.Node) []callee {
	if len(lits) == 0 {
		return nil
	}
	info := cs.pass.TypesInfo
	var out []callee
	seen := map[*ast.FuncLit]bool{}
	var walk func(root ast.Node, at *ast.Ident, holder *types.Var)
	walk = func(root ast.Node, at *ast.Ident, holder *types.Var) {
		rc, ok := cs.cursor(root)
		if !ok {
			return
		}
		for c := range rc.Preorder((*ast.Ident)(nil)) {
			id := c.Node().(*ast.Ident)
			v, _ := info.Uses[id].(*types.Var)
			for _, lit := range lits[v] {
				if seen[lit] || lit.Pos() >= n.Pos() && lit.End() <= n.End() {
					continue
				}
				seen[lit] = true
				ce := callee{v: v, at: id, lit: lit}
				if at != nil {
					ce.v, ce.at = holder, at
				}
				out = append(out, ce)
				walk(lit.Body, ce.at, ce.v)
			}
		}
	}
	walk(n, nil, nil)
	return out
}

// addCallees takes into the leaf l, of the statement s, the literals it
// may run through a local (callees): their reads and sets of the object,
// or why the write stays: a literal changing or reading the status, or
// handing the object on, or, run by a moving statement, using the
// object.
func (ms *mutateStmts) addCallees(l *leaf, s ast.Stmt) string {
	name := ms.obj.Name()
	if ms.lits == nil {
		ms.lits = funcLits(ms.cs)
	}
	for _, ce := range callees(ms.cs, ms.lits, s) {
		how := ce.how(ms.cs) + ", which"
		uses := ms.uses(ce.lit.Body)
		if l.status && len(uses) > 0 {
			return fmt.Sprintf("%s uses %s: moved into the Retry with the status statement at %s, it would reach the object CreateOrPatch had, not the one the Retry holds", how, name, ms.cs.where(s.Pos()))
		}
		for _, u := range uses {
			switch {
			case u.handed != "":
				return fmt.Sprintf("%s hands %s to %s, which may read or change its status", how, name, u.handed)
			case u.field == "Status" && u.sets:
				return fmt.Sprintf("%s changes %s.Status: -fix does not move a literal's body out of the mutate", how, name)
			case u.field == "Status":
				return fmt.Sprintf("%s reads %s.Status: it stays in the mutate, where it would read the status CreateOrPatch read, not the one decided after it", how, name)
			case u.sets:
				l.sets[u.field] = true
				if l.via == nil {
					l.via = map[string]callee{}
				}
				if _, had := l.via[u.field]; !had {
					l.via[u.field] = ce
				}
			default:
				l.reads[u.field] = true
			}
		}
		l.extra = append(l.extra, ce)
	}
	return ""
}

// setter names what in the leaf m sets the field f: the leaf's line, or
// the local whose literal does.
func setter(cs *site, m leaf, f string) string {
	if ce, ok := m.via[f]; ok {
		return fmt.Sprintf("%s,", ce.how(cs))
	}
	if m.deferred {
		return cs.where(m.node.Pos()) + ", deferring a call to the mutate's return,"
	}
	return cs.where(m.node.Pos())
}

// leafRoots are the cursors of what the leaf runs: its node and the
// bodies of its callees, each with the words telling a line in it apart.
func leafRoots(cs *site, l leaf) ([]inspector.Cursor, []string) {
	roots := []inspector.Cursor{mustCursor(cs, l.node)}
	in := []string{""}
	for _, ce := range l.extra {
		roots = append(roots, mustCursor(cs, ce.lit.Body))
		in = append(in, fmt.Sprintf(" (%s)", ce.how(cs)))
	}
	return roots, in
}

// inLit reports whether v is declared in a callee's literal of l (its
// parameters, its locals): each run has its own.
func inLit(l leaf, v types.Object) bool {
	for _, ce := range l.extra {
		if v.Pos() >= ce.lit.Pos() && v.Pos() < ce.lit.End() {
			return true
		}
	}
	return false
}

// firstSet is the first node under root that may set a variable is
// tells: an assignment with it on the left, an increment or decrement,
// its address taken; the expression set and its variable. nil when none.
func firstSet(root inspector.Cursor, info *types.Info, is func(*types.Var) bool) (ast.Node, ast.Expr, *types.Var) {
	for c := range root.Preorder((*ast.AssignStmt)(nil), (*ast.IncDecStmt)(nil), (*ast.UnaryExpr)(nil)) {
		var set []ast.Expr
		switch n := c.Node().(type) {
		case *ast.AssignStmt:
			set = n.Lhs
		case *ast.IncDecStmt:
			set = []ast.Expr{n.X}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				set = []ast.Expr{n.X}
			}
		}
		for _, e := range set {
			if v := rootVar(info, e); v != nil && is(v) {
				return c.Node(), e, v
			}
		}
	}
	return nil, nil, nil
}

// movedSets says why the moving leaf l cannot run after the mutate for
// a variable it sets outside the object and the moving leaves (inMoved),
// itself or in a literal it runs: moved, it would be set after
// CreateOrPatch, and not on create.
func movedSets(cs *site, obj *types.Var, l leaf, inMoved func(*types.Var) bool) string {
	roots, in := leafRoots(cs, l)
	for k, root := range roots {
		n, e, _ := firstSet(root, cs.pass.TypesInfo, func(v *types.Var) bool { return v != obj && !inMoved(v) && !inLit(l, v) })
		if n != nil {
			return fmt.Sprintf("%s%s sets %s, outside the object: moved, it would be set after CreateOrPatch, and not on create", cs.where(n.Pos()), in[k], types.ExprString(e))
		}
	}
	return ""
}

// calleeEffects says why a moving leaf cannot run a literal through a
// local: what in its body Retry's attempts would do again (effectWhy:
// a receive, a send), or a call with a side effect (sideEffect), which
// -fix makes once only where the moved text itself calls it: in the
// Retry it would run on each attempt, after CreateOrPatch.
func calleeEffects(s *onceSpan, r retries, leaves []leaf) string {
	for _, l := range leaves {
		if !l.status {
			continue
		}
		for _, ce := range l.extra {
			if why := effectWhy(r, []ast.Node{ce.lit.Body}); why != "" {
				return fmt.Sprintf("%s, in which %s", ce.how(s.si), why)
			}
			for c := range mustCursor(s.si, ce.lit.Body).Preorder((*ast.CallExpr)(nil)) {
				call := c.Node().(*ast.CallExpr)
				if fx := s.sideEffect(call); fx != "" {
					return fmt.Sprintf("%s, which calls %s at %s (%s): moved into the Retry, it would run again on each attempt, after CreateOrPatch", ce.how(s.si), types.ExprString(call.Fun), s.where(call.Pos()), fx)
				}
			}
		}
	}
	return ""
}

// defers reports whether the statement s of the mutate defers a call
// (not in a function literal of its own): the call runs as the mutate
// returns, after its last statement.
func defers(cs *site, s ast.Node) bool {
	for c := range mustCursor(cs, s).Preorder((*ast.DeferStmt)(nil)) {
		inLit := false
		for e := range c.Enclosing((*ast.FuncLit)(nil)) {
			inLit = e.Node().Pos() >= s.Pos() && e.Node().End() <= s.End()
			break
		}
		if !inLit {
			return true
		}
	}
	return false
}

// laterLeaves are the leaves that may run after leaves[i]: those after
// it, and those before it that defer a call.
func laterLeaves(leaves []leaf, i int) []leaf {
	var out []leaf
	for j, l := range leaves {
		if j > i || j < i && l.deferred {
			out = append(out, l)
		}
	}
	return out
}

// earlierLeaves are the leaves that may run before leaves[j] (all of its
// deferred call): those before it, or all others when it defers.
func earlierLeaves(leaves []leaf, j int) []leaf {
	if !leaves[j].deferred {
		return leaves[:j]
	}
	return append(slices.Clone(leaves[:j]), leaves[j+1:]...)
}
