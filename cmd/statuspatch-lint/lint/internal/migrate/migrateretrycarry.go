package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// A name the decision sets that the code after the write uses (issue 80,
// project D's Quota: result := ctrl.Result{RequeueAfter: end.Sub(now)},
// returned after the write; a computed message; a child's name): the
// decision moves into Retry with the name declared before the Retry
// (var result ctrl.Result) and set in its function. Retry returns nil
// after the attempt that stored, so a use that runs only when the write
// succeeded (after an if err != nil whose body returns) reads the stored
// attempt's value, when every attempt sets the name afresh: a statement
// at the decision's top level sets it, before any read of it and before
// any exit of the decision. A use on the error path, one captured by a
// function literal, one whose address is taken, or a name an attempt
// may leave as the one before set it (set only in a branch, n++) keeps
// the decision out of Retry.

// A carrier finds the names a decision p in the function's body carries.
type carrier struct {
	retries
	p    *retryPlan
	body ast.Node
}

// A carried name of a decision: what the code after the write uses.
type carried struct {
	v *types.Var
	// def: the decision's v := ..., which becomes v = ... in mutate, v
	// declared before the Retry as typ; nil: v is declared before the
	// decision and set at its top level.
	def *ast.AssignStmt
	typ string
}

// carry sets p.carried to the names the decision p declares or sets and
// the code after the write uses, or says why one it declares cannot be
// carried out of Retry's function; "" with none. Why one declared before
// it cannot is p.uncarried's, which outerWhy says.
func carry(r retries, p *retryPlan) string {
	from, to := p.stmts[0].Pos(), p.stmts[len(p.stmts)-1].End()
	fn := r.enclosingFunc()
	body := fn
	switch f := fn.(type) {
	case *ast.FuncDecl:
		body = f.Body
	case *ast.FuncLit:
		body = f.Body
	}
	k := carrier{retries: r, p: p, body: body}
	var names []carried
	for i, s := range p.stmts {
		for _, v := range k.setAtTop(s, from, to) {
			if k.usedOutside(v, from, to) && !k.readsFirst(i, v) {
				c, why := k.carriedOf(i, v)
				switch {
				case why != "" && c.def == nil:
					// declared before the decision: outerWhy says why
					if p.uncarried == nil {
						p.uncarried = map[*types.Var]string{}
					}
					p.uncarried[v] = why
				case why != "":
					return why
				default:
					names = append(names, c)
				}
			}
		}
	}
	if len(names) > 0 && p.guard != nil {
		return fmt.Sprintf("it sets %s, used after the write, under the condition at %s, which Retry's function checks again and may find false, leaving the value an earlier attempt set", names[0].v.Name(), r.where(p.guard.Pos()))
	}
	p.carried = names
	return ""
}

// setAtTop are the local variables the top-level statement s of the
// decision declares with :=, or sets with = when declared in the
// function's body before the decision.
func (r carrier) setAtTop(s ast.Stmt, from, to token.Pos) []*types.Var {
	body := r.body
	as, ok := s.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE && as.Tok != token.ASSIGN {
		return nil
	}
	var out []*types.Var
	for _, l := range as.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok {
			continue
		}
		v, _ := r.pass.TypesInfo.ObjectOf(id).(*types.Var)
		if v == nil || v == r.obj || v == r.copyOf || v.Pos() < body.Pos() || v.Pos() >= body.End() {
			continue
		}
		if v.Pos() >= from && v.Pos() < to && r.pass.TypesInfo.Defs[id] != v {
			continue // set again after its := in the decision: its := carries it
		}
		out = append(out, v)
	}
	return out
}

// usedOutside reports whether v is used in body outside from..to (the
// configuration an apply gives in the write's own call is mutate's).
func (r carrier) usedOutside(v *types.Var, from, to token.Pos) bool {
	for c := range r.usesOf(r.body, v, r.body.Pos(), r.body.End()) {
		at := c.Node().Pos()
		if at >= from && at < to || r.apply != nil && at >= r.call.Pos() && at < r.call.End() {
			continue
		}
		return true
	}
	return false
}

// carriedOf is v, set by the decision's i-th statement, as a carried
// name, or why it cannot be.
func (r carrier) carriedOf(i int, v *types.Var) (carried, string) {
	p := r.p
	s := p.stmts[i].(*ast.AssignStmt)
	from, to := p.stmts[0].Pos(), p.stmts[len(p.stmts)-1].End()
	name, line := v.Name(), r.where(s.Pos())
	c := carried{v: v}
	if v.Pos() >= from && v.Pos() < to {
		c.def = s
		for _, l := range s.Lhs {
			if id, ok := l.(*ast.Ident); ok && id.Name != "_" && r.pass.TypesInfo.Defs[id] != nil && !r.usedOutside(r.pass.TypesInfo.Defs[id].(*types.Var), from, to) {
				return c, fmt.Sprintf("the statement at %s declares %s with %s, used after the write, and only %s would be declared before Retry", line, id.Name, name, name)
			}
		}
		typ, why := r.typeText(v.Type())
		if why != "" {
			return c, fmt.Sprintf("%s, declared at %s and used after the write, would be declared before Retry, and %s", name, line, why)
		}
		c.typ = typ
	}
	for _, e := range p.stmts[:i] {
		if at := exitIn(e); at != nil {
			return c, fmt.Sprintf("the exit at %s may end an attempt before %s is set at %s, leaving the value an earlier attempt set", r.where(at.Pos()), name, line)
		}
	}
	if why := r.setOnlyIn(v); why != "" {
		return c, why
	}
	return c, r.usesAfterWhy(v)
}

// setOnlyIn says why v, carried out of the decision p, may hold another
// value than an attempt set when the code after the write reads it: a
// function literal captures it, or its address is taken.
func (r carrier) setOnlyIn(v *types.Var) string {
	fn := r.enclosingFunc()
	for u := range r.usesOf(fn, v, fn.Pos(), fn.End()) {
		for e := range u.Enclosing((*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
			if e.Node() != fn {
				return fmt.Sprintf("%s, used after the write, is captured by the function literal at %s: which attempt's value it reads is not seen", v.Name(), r.where(e.Node().Pos()))
			}
			break
		}
		parent := u.Parent().Node()
		if un, ok := parent.(*ast.UnaryExpr); ok && un.Op == token.AND {
			return fmt.Sprintf("%s, used after the write, has its address taken at %s: which attempt's value it reads is not seen", v.Name(), r.where(un.Pos()))
		}
		if sel, ok := parent.(*ast.SelectorExpr); ok && sel.X == u.Node() {
			if s := r.pass.TypesInfo.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
				if _, ptr := s.Obj().Type().(*types.Signature).Recv().Type().(*types.Pointer); ptr {
					if _, isPtr := v.Type().Underlying().(*types.Pointer); !isPtr {
						return fmt.Sprintf("%s, used after the write, has its address taken at %s by its method %s: which attempt's value it reads is not seen", v.Name(), r.where(sel.Pos()), sel.Sel.Name)
					}
				}
			}
		}
	}
	return ""
}

// usesAfterWhy says why a use of v after the decision p may run when the
// write failed, where the value is the failed attempt's: in the write's
// own statement, on its error path, or after a write whose error no
// return ends; "" when each runs only after Retry returned nil.
func (r carrier) usesAfterWhy(v *types.Var) string {
	p, body := r.p, r.body
	from, to := p.stmts[0].Pos(), p.stmts[len(p.stmts)-1].End()
	errFrom, errTo := r.errorPath()
	for u := range r.usesOf(body, v, body.Pos(), body.End()) {
		at := u.Node().Pos()
		switch {
		case at >= from && at < to || r.apply != nil && at >= r.call.Pos() && at < r.call.End():
		case !errFrom.IsValid():
			if at >= p.write.Pos() || r.inLoopWith(at) {
				return fmt.Sprintf("%s, set in the decision and used at %s, would hold the failed attempt's value when the write fails: no return ends the write's error before it", v.Name(), r.where(at))
			}
		case at >= errFrom && at < errTo:
			return fmt.Sprintf("%s is used at %s on the write's error path, where it would hold Retry's last failed attempt's value, not the decision the handwritten write failed with", v.Name(), r.where(at))
		case at >= p.write.Pos() && at < errFrom:
			return fmt.Sprintf("%s is used at %s in the write's statement", v.Name(), r.where(at))
		}
	}
	return ""
}

// inLoopWith reports whether a loop around the write holds at: code
// there runs again after the write.
func (r carrier) inLoopWith(at token.Pos) bool {
	c, ok := r.cursor(r.call)
	if !ok {
		return false
	}
	for e := range c.Enclosing((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		switch e.Node().(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return false
		}
		if at >= e.Node().Pos() && at < e.Node().End() {
			return true
		}
	}
	return false
}

// errorPath is the span of the write's error check, whose body ends in a
// return: the write's own if err := W; err != nil { ... return }, or the
// if err != nil { ... return } right after err := W; NoPos when the
// write's error is handled otherwise.
func (r carrier) errorPath() (token.Pos, token.Pos) {
	p := r.p
	check := func(is *ast.IfStmt, as *ast.AssignStmt) bool {
		if as == nil || len(as.Rhs) != 1 || ast.Unparen(as.Rhs[0]) != ast.Expr(r.call) || is.Else != nil || !terminates(is.Body) {
			return false
		}
		b, ok := is.Cond.(*ast.BinaryExpr)
		if !ok || b.Op != token.NEQ || !isNil(b.Y) {
			return false
		}
		x, ok := b.X.(*ast.Ident)
		last, ok2 := as.Lhs[len(as.Lhs)-1].(*ast.Ident)
		return ok && ok2 && r.pass.TypesInfo.ObjectOf(x) == r.pass.TypesInfo.ObjectOf(last)
	}
	switch w := p.write.(type) {
	case *ast.IfStmt:
		if as, _ := w.Init.(*ast.AssignStmt); check(w, as) {
			return w.Body.Pos(), w.End()
		}
	case *ast.AssignStmt:
		_, list, at := writeList(r.retries)
		if at >= 0 && at+1 < len(list) {
			if is, ok := list[at+1].(*ast.IfStmt); ok && is.Init == nil && check(is, w) {
				return is.Pos(), is.End()
			}
		}
	}
	return token.NoPos, token.NoPos
}

// typeText is t as the file names it, or why it cannot be written there.
func (r carrier) typeText(t types.Type) (string, string) {
	bad := ""
	typ := types.TypeString(t, func(p *types.Package) string {
		q, imp, why := r.text().qualifier(p.Path())
		if why != "" || imp != nil {
			bad = "its type is of " + p.Path() + ", which this file does not import"
		}
		return strings.TrimSuffix(q, ".")
	})
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Parent() != nil && n.Obj().Parent() != n.Obj().Pkg().Scope() {
		bad = "its type " + n.Obj().Name() + " is declared in the function"
	}
	return typ, bad
}

// isLhs reports whether id is one of the assignment's left-hand names.
func isLhs(s *ast.AssignStmt, id *ast.Ident) bool {
	for _, l := range s.Lhs {
		if l == ast.Expr(id) {
			return true
		}
	}
	return false
}

// exitIn is the first return or branch in s outside function literals,
// nil when none.
func exitIn(s ast.Stmt) ast.Node {
	var at ast.Node
	ast.Inspect(s, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt, *ast.BranchStmt:
			if at == nil {
				at = n
			}
		}
		return at == nil
	})
	return at
}

// carriedDecls declare the decision's carried names before the Retry,
// each followed by a new line and indent.
func (p *retryPlan) carriedDecls(indent string) string {
	var b strings.Builder
	for _, c := range p.carried {
		if c.def != nil {
			fmt.Fprintf(&b, "var %s %s\n%s", c.v.Name(), c.typ, indent)
		}
	}
	return b.String()
}

// carriedTexts are mutate's replacements of the carried names' :=, =.
func (p *retryPlan) carriedTexts(texts map[ast.Node]string) map[ast.Node]string {
	out := map[ast.Node]string{}
	for n, t := range texts {
		out[n] = t
	}
	for _, c := range p.carried {
		if c.def != nil && c.def.Tok == token.DEFINE {
			out[tokSpan{c.def.TokPos, c.def.TokPos + 2}] = "="
		}
	}
	return out
}

// tokSpan is a token's span, an edit's node.
type tokSpan struct{ pos, end token.Pos }

func (t tokSpan) Pos() token.Pos { return t.pos }
func (t tokSpan) End() token.Pos { return t.end }

// carries reports whether p carries v out of its decision.
func (p *retryPlan) carries(v *types.Var) bool {
	for _, c := range p.carried {
		if c.v == v {
			return true
		}
	}
	return false
}

// zeroDecl reports whether s is var x T, without values, whose names are
// each used from the write on: declared before the Retry as written, set
// in it (carry's outer names).
func zeroDecl(r retries, s, write ast.Stmt) bool {
	ds, ok := s.(*ast.DeclStmt)
	if !ok {
		return false
	}
	gd, ok := ds.Decl.(*ast.GenDecl)
	if !ok || gd.Tok != token.VAR {
		return false
	}
	for _, spec := range gd.Specs {
		vs, ok := spec.(*ast.ValueSpec)
		if !ok || len(vs.Values) > 0 {
			return false
		}
		for _, id := range vs.Names {
			v, _ := r.pass.TypesInfo.Defs[id].(*types.Var)
			if v == nil {
				return false
			}
			used := false
			for range r.usesOf(r.enclosingFunc(), v, write.Pos(), r.enclosingFunc().End()) {
				used = true
				break
			}
			if !used {
				return false
			}
		}
	}
	return true
}

// readsFirst reports whether v, declared before the decision, is read in
// it before or in the value of its i-th statement, which sets it (n++,
// seen = append(seen, x)): each attempt's effect would stay, which
// outerWhy says.
func (r carrier) readsFirst(i int, v *types.Var) bool {
	s := r.p.stmts[i].(*ast.AssignStmt)
	if v.Pos() >= r.p.stmts[0].Pos() && v.Pos() < r.p.stmts[len(r.p.stmts)-1].End() {
		return false
	}
	for u := range r.usesOf(r.body, v, r.p.stmts[0].Pos(), s.End()) {
		if !isLhs(s, u.Node().(*ast.Ident)) {
			return true
		}
	}
	return false
}
