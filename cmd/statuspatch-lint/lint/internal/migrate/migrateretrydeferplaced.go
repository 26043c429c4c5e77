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
//     return, becomes a Retry at its place (the other paths do not run
//     it), a value it hands out made once, its error returned as the
//     final return gives its own (return X, err; a bare return sets the
//     named result), so the deferred literal reads it in the named error;
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
// retry repeats; the function has no error result for the decision's
// Retry; or the decision checks of deferPlan fail (another statement,
// a second defer among them, changes the object; a call given ctx; a
// goto's label).

// placedDecision is the decision's own Retry at its place: its plan
// (detached: the lines go, the Retry takes their place), the final
// return after it, and the function's error result.
type placedDecision struct {
	plan *retryPlan
	ret  *ast.ReturnStmt // the final return after the decision; nil: none
	res  *types.Var      // the function's error result, its last
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
// of fn's body before its final return, from the first that uses the
// object, holding the read; the others past the patcher's anchor only
// read the object.
func placedBody(r retries, fn ast.Node, lit *ast.FuncLit, read ast.Node, from token.Pos, write ast.Stmt) (*placedDecision, string) {
	const notLast = "the decision is not the function's last statements before its return"
	body := funcBody(fn)
	if body == nil {
		return nil, notLast
	}
	res := lastErrorResult(r, fn)
	if res == nil {
		return nil, fmt.Sprintf("%s returns no error for the decision's own Retry to return", declName(fn))
	}
	list := body.List
	d := slices.IndexFunc(list, func(s ast.Stmt) bool { return within(lit, s) })
	if d < 0 {
		return nil, "the defer is not a statement of the function's body"
	}
	dec := &placedDecision{res: res}
	end := len(list)
	ret, ok := list[end-1].(*ast.ReturnStmt)
	switch {
	case !ok:
		return nil, fmt.Sprintf("%s's body does not end in a return for the decision's own Retry's error", declName(fn))
	case usesObj(r, ret):
		return nil, notLast + ": the return at " + r.where(ret.Pos()) + " uses " + r.obj.Name()
	case len(ret.Results) != 0 && len(ret.Results) != len(resultVars(r.pass, fn)):
		return nil, fmt.Sprintf("the return at %s gives its results from one call, with none left for the decision's own Retry's error", r.where(ret.Pos()))
	}
	dec.ret = ret
	end--
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
	for id := range identsOf(r.call.Args[0]) {
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

// lastErrorResult is fn's last result when it is an error, else nil.
func lastErrorResult(r retries, fn ast.Node) *types.Var {
	rs := resultVars(r.pass, fn)
	if len(rs) == 0 || !isError(rs[len(rs)-1].Type()) {
		return nil
	}
	return rs[len(rs)-1]
}

// declName is fn's name, or "the function" for a literal.
func declName(fn ast.Node) string {
	if f, ok := fn.(*ast.FuncDecl); ok {
		return f.Name.Name
	}
	return "the function"
}

// identsOf are the identifiers in e.
func identsOf(e ast.Node) map[*ast.Ident]bool {
	out := map[*ast.Ident]bool{}
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			out[id] = true
		}
		return true
	})
	return out
}

// placedEdits are the decision's Retry at its place on the patcher
// named name, its calls made once declared right before it, and sync's
// import for them: `return name.Retry(...)` for a final `return nil` of
// a function with one result; else `if err := name.Retry(...); err !=
// nil { return X, err }` before the final return (X its other results),
// or, for a bare one, the named result set and `return`.
func placedEdits(r retries, name string, dec *placedDecision) ([]analysis.TextEdit, *analysis.TextEdit, bool) {
	p := dec.plan
	call, ok := r.retryText(name, p)
	if !ok {
		return nil, nil, false
	}
	first, last := p.stmts[0], p.stmts[len(p.stmts)-1]
	tf := r.pass.Fset.File(first.Pos())
	src, err := r.pass.ReadFile(tf.Name())
	if err != nil {
		return nil, nil, false
	}
	indent := r.text().indent(first.Pos())
	var imp *analysis.TextEdit
	decls := ""
	if len(p.once) > 0 {
		sync, i, why := r.text().qualifier("sync")
		if why != "" {
			return nil, nil, false
		}
		imp, decls = i, p.onceDecls(src, tf, indent, sync)
	}
	ret := dec.ret
	if ret != nil && len(ret.Results) == 1 && isNil(ret.Results[0]) {
		return []analysis.TextEdit{{Pos: first.Pos(), End: ret.End(), NewText: []byte(decls + "return " + call)}}, imp, true
	}
	var others []string
	bare := ret == nil || len(ret.Results) == 0
	taken := map[string]bool{}
	if bare {
		taken[dec.res.Name()] = true
	} else {
		for _, x := range ret.Results[:len(ret.Results)-1] {
			others = append(others, r.text().source(x))
			for id := range identsOf(x) {
				taken[id.Name] = true
			}
		}
	}
	e := "err"
	for _, n := range []string{"rerr", "retryErr"} {
		if taken[e] {
			e = n
		}
	}
	exit := indent + "\treturn " + strings.Join(append(others, e), ", ")
	if bare {
		exit = indent + "\t" + dec.res.Name() + " = " + e + "\n" + indent + "\treturn"
	}
	text := fmt.Sprintf("%sif %s := %s; %s != nil {\n%s\n%s}", decls, e, call, e, exit, indent)
	return []analysis.TextEdit{{Pos: first.Pos(), End: last.End(), NewText: []byte(text)}}, imp, true
}
