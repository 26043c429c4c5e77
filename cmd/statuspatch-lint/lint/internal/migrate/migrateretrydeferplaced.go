package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// A deferred write whose decision cannot join it (migrateretrydefer.go's
// deferPlan): the literal changes the object before its write (a Ready
// condition from the named error and the generation), or a return or
// branch lies between the defer and the decision, whose path does not
// run it (issue 80 item 2, T's project B's Ship). Each goes into a Retry
// of the one patcher made at the read (placedPlan):
//
//   - the decision, the function's last statements before its final
//     return (or its end, when it returns nothing), becomes a Retry at
//     its place (the other paths do not run it), a value it hands out
//     made once, its error kept in a variable declared before the defer
//     and returned by the deferred Retry's mutate: the handwritten
//     code's one write sent the decision's change in the defer, so its
//     error goes where that write's went (ignored, logged, filtered,
//     joined into the named result), the function goes on to its final
//     return as it did, and the literal reads the named error it read;
//     mutate's error is Retry's, unchanged, with nothing sent;
//   - the literal's statements from its first use of the object to the
//     write become the deferred write's mutate: they compute from the
//     named error and the object (the decision's Retry stored its change
//     before the defer runs), so running them again on a fresh read is
//     what the handwritten write sent, where a Flush of a cached base (the
//     early return's path read nothing fresh) is refused. A literal that
//     does not use the object before its write has nothing left to send on
//     any path: its write is a Flush, which sends nothing.
//
// It stays, naming the line and the fact, when: the literal may return
// or jump before its write (the decision's Retry would write where the
// handwritten code did not); the literal's moved lines call recover()
// (which stops a panic only called by the deferred function itself),
// set a variable declared outside them (the named error joined again on
// each attempt), declare a name used after the write, or make a call a
// retry repeats; the function with results does not end in a return; or
// the decision checks of deferPlan fail (another statement,
// a second defer among them, changes the object; a call given ctx; a
// goto's label).

// placedDecision is the decision's own Retry at its place: its plan
// (detached: the lines go, the Retry takes their place) and the defer,
// before which its error's variable is declared.
type placedDecision struct {
	plan *retryPlan
	at   ast.Stmt // the defer
}

// placedPlan is the deferred write's Retry holding the literal's changes
// (the write's own list), the decision placed (p.placed), or nil and why.
func placedPlan(r retries, fn ast.Node, lit *ast.FuncLit, read ast.Node, from token.Pos) (*retryPlan, string) {
	write := r.enclosingStmt()
	wi := slices.Index(lit.Body.List, write)
	if wi < 0 {
		return nil, "the deferred write is not a statement of its literal"
	}
	p := &retryPlan{write: write}
	if why := placedLiteral(r, fn, lit.Body.List[:wi], write, p); why != "" {
		return nil, why
	}
	dec, why := placedBody(r, fn, lit, read, from, write)
	if dec == nil {
		return nil, why
	}
	p.placed = dec
	return p, ""
}

// placedLiteral sets p.stmts to the literal's statements before the
// write from its first use of the object, and p.once, or says why they
// cannot be the deferred Retry's mutate.
func placedLiteral(r retries, fn ast.Node, pre []ast.Stmt, write ast.Stmt, p *retryPlan) string {
	h := slices.IndexFunc(pre, func(s ast.Stmt) bool { return usesObj(r, s) })
	for _, s := range pre {
		// Stricter than stopWhy: even mutate's return nil is a path the
		// handwritten literal left without writing.
		if exits(s) {
			return fmt.Sprintf("the deferred literal may return or jump at %s, before its write: the decision's own Retry would write on a path where the deferred write does not", r.where(s.Pos()))
		}
	}
	if h < 0 {
		return "" // a Flush: nothing changed is left to send
	}
	p.stmts = pre[h:]
	for _, s := range p.stmts {
		if why := r.stopWhy(s, write); why != "" {
			return why // a sentence of its own: "the deferred literal calls recover() at ..."
		}
	}
	if !r.scoped(p) || r.capturesStatus(p) {
		return fmt.Sprintf("the deferred literal's lines %s to %s declare a name used after its write, or use one declared outside them from the status", r.where(p.stmts[0].Pos()), r.where(write.Pos()))
	}
	if why := outerWhy(r, p); why != "" {
		return "the deferred literal's changes cannot move into Retry: " + why
	}
	once, why := onceCalls(r, fn, p.nodes())
	if why != "" {
		return "the deferred literal's changes cannot move into Retry as written: " + why
	}
	p.once = once
	return ""
}

// placedBody is the decision's Retry at its place: the last statements
// of fn's body before its final return (its end, for a function without
// results), from the first that uses the object, holding the read; the
// others past the patcher's anchor only read the object.
func placedBody(r retries, fn ast.Node, lit *ast.FuncLit, read ast.Node, from token.Pos, write ast.Stmt) (*placedDecision, string) {
	const notLast = "the decision is not the function's last statements before its return"
	body := funcBody(fn)
	if body == nil {
		return nil, notLast
	}
	list := body.List
	d := slices.IndexFunc(list, func(s ast.Stmt) bool { return within(lit, s) })
	if d < 0 {
		return nil, "the defer is not a statement of the function's body"
	}
	dec := &placedDecision{at: list[d]}
	end := len(list)
	ret, ok := list[end-1].(*ast.ReturnStmt)
	switch {
	case !ok && len(resultVars(r.pass, fn)) > 0:
		return nil, fmt.Sprintf("%s's body does not end in a return, before which the decision's own Retry would go", declName(fn))
	case ok && usesObj(r, ret):
		return nil, notLast + ": the return at " + r.where(ret.Pos()) + " uses " + r.obj.Name()
	case ok:
		end-- // the final return stays as it is, after the decision
	}
	k := end
	for k > d+1 && !exits(list[k-1]) && r.movable(list[k-1], list[end-1]) {
		k--
	}
	for k < end && !usesObj(r, list[k]) {
		k++ // a head that does not touch the object runs before, once
	}
	if k == end || read.Pos() < list[k].Pos() {
		if k > d+1 && k <= end {
			if s := list[k-1]; exits(s) {
				return nil, notLastAt(r, notLast, s)
			} else if why := r.stopWhy(s, list[end-1]); why != "" {
				return nil, notLast + ": " + why
			}
		}
		return nil, notLast
	}
	for _, id := range identsOf(r.call.Args[0]) {
		if o := r.pass.TypesInfo.Uses[id]; o != nil && o.Pos() >= lit.Pos() && o.Pos() < lit.End() {
			return nil, fmt.Sprintf("the write's context %s is declared in the deferred literal, not at the decision", id.Name)
		}
	}
	p, why := lastDecision(r, fn, list, d, k, end, from, list[k]) // migrateretrydefer.go
	if p == nil {
		return nil, why
	}
	dec.plan = p
	return dec, ""
}

// declName is fn's name, or "the function" for a literal.
func declName(fn ast.Node) string {
	if f, ok := fn.(*ast.FuncDecl); ok {
		return f.Name.Name
	}
	return "the function"
}

// identsOf are the identifiers in e, in source order: the reason names
// the first declared in the literal.
func identsOf(e ast.Node) []*ast.Ident {
	var out []*ast.Ident
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			out = append(out, id)
		}
		return true
	})
	return out
}

// placedEdits are the decision's Retry at its place on the patcher
// named name, `v = name.Retry(...)`, its calls made once declared right
// before it, `var v error` before the defer and sync's import for them;
// and the deferred write's call (call: its Retry, or its Flush when the
// literal changes nothing) with v as mutate's return: the decision's
// error reaches the deferred write's handling unchanged, nothing sent.
func placedEdits(r retries, name string, dec *placedDecision, call string) ([]analysis.TextEdit, *analysis.TextEdit, string, bool) {
	p := dec.plan
	dcall, ok := r.retryText(name, p)
	if !ok {
		return nil, nil, "", false
	}
	first, last := p.stmts[0], p.stmts[len(p.stmts)-1]
	tf := r.pass.Fset.File(first.Pos())
	src, err := r.pass.ReadFile(tf.Name())
	if err != nil {
		return nil, nil, "", false
	}
	indent := r.text().indent(first.Pos())
	var imp *analysis.TextEdit
	decls := ""
	if len(p.once) > 0 {
		sync, i, why := r.text().qualifier("sync")
		if why != "" {
			return nil, nil, "", false
		}
		imp, decls = i, p.onceDecls(src, tf, indent, sync)
	}
	v := ""
	for _, n := range []string{r.obj.Name() + "Err", r.obj.Name() + "DecideErr", "decisionErr"} {
		if !r.text().nameTaken(n) {
			v = n
			break
		}
	}
	call, ok = placedCall(r, name, call, v)
	if v == "" || !ok {
		return nil, nil, "", false
	}
	return []analysis.TextEdit{
		{Pos: dec.at.Pos(), End: dec.at.Pos(), NewText: []byte("var " + v + " error // the decision's Retry's, returned by the deferred one's mutate\n" + r.text().indent(dec.at.Pos()))},
		{Pos: first.Pos(), End: last.End(), NewText: []byte(decls + v + " = " + dcall)},
	}, imp, call, true
}

// placedCall is the deferred write's call with v as its mutate's
// return: a Retry's `return nil` made `return v`; a Flush (the literal
// changes nothing) a Retry changing nothing that returns v.
func placedCall(r retries, name, call, v string) (string, bool) {
	if strings.HasPrefix(call, name+".Flush(") {
		typ, imp, why := r.text().qualifier(r.objPkg())
		named := r.objNamed()
		if why != "" || imp != nil || named == nil {
			return "", false
		}
		return fmt.Sprintf("%s.Retry(%s, func(*%s%s) error { return %s })", name, types.ExprString(r.call.Args[0]), typ, named.Obj().Name(), v), true
	}
	i := strings.LastIndex(call, "return nil\n")
	if i < 0 || strings.TrimLeft(call[i+len("return nil\n"):], "\t ") != "})" {
		return "", false
	}
	return call[:i] + "return " + v + call[i+len("return nil"):], true
}
