package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"iter"
	"slices"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/analysis"
)

// The text of a conflict loop made the patcher's Fetch and Retry
// (migrateloop.go).

// fix is the loop's move, or why it stays: another status write of the
// object in fn, or a use the patcher's write would not send as the
// handwritten one did (checkMutations).
func (l *conflictLoop) fix(p Patcher, files Files, ws []*Write, opts Options) (*analysis.SuggestedFix, string) {
	for _, o := range ws {
		call, ok := files.Calls[o.Lparen]
		if !ok || call == l.migration.call || call.Pos() < l.lit.Pos() || call.End() > l.lit.End() || len(call.Args) < 2 {
			continue
		}
		if id, ok := ast.Unparen(call.Args[1]).(*ast.Ident); ok && l.pass.TypesInfo.Uses[id] == l.obj {
			return nil, fmt.Sprintf("%s's status is also written at line %d in %s's function: move them into one Retry by hand", l.obj.Name(), l.line(call), l.name)
		}
	}
	if why := l.checks().unsentMutations(l.migration.call); why != "" {
		return nil, why
	}
	if l.callback != nil {
		// A helper's loop handing the object to a function it is given:
		// its callers' functions decide (migratecallback.go).
		if why := exportCallback(l.migration, opts, files); why != "" {
			return nil, why
		}
	}
	return l.edits(p)
}

// edits replaces the loop's statement with the patcher's Fetch and
// Retry, fn's body after its Get as Retry's mutate.
func (l *conflictLoop) edits(p Patcher) (*analysis.SuggestedFix, string) {
	qual, importEdit, why := l.text().qualifier(p.Pkg)
	if why != "" {
		return nil, why
	}
	owner, ownerImport, why := l.patcherOptions(l.text())
	if why != "" {
		return nil, why
	}
	typ, imp, why := l.text().qualifier(retries{migration: l.migration}.objPkg())
	named := retries{migration: l.migration}.objNamed()
	if why != "" || imp != nil || named == nil {
		return nil, "the type of " + l.obj.Name() + " cannot be named in this file"
	}
	tf := l.pass.Fset.File(l.stmt.Pos())
	src, err := l.pass.ReadFile(tf.Name())
	if err != nil {
		return nil, err.Error()
	}
	name := l.freePatcherName()
	ctx := l.text().source(l.get.Args[0])
	in := l.text().indent(l.stmt.Pos())
	errName := "err"
	if l.result != nil {
		errName = l.result.Name
	}
	// A value used after the loop is read into itself (migratevalue.go):
	// Retry re-reads in place, so it holds the patcher's object, no copy.
	into := p.Into && l.used && valueObj(l.obj)
	call := fmt.Sprintf("%sFetch%s(%s, %s, %s%s)", qual, p.Type, ctx, l.clientText, l.text().source(l.get.Args[1]), owner)
	if into {
		call = fmt.Sprintf("%sFetch%sInto(%s, %s, %s, %s%s)", qual, p.Type, ctx, l.clientText, l.text().source(l.get.Args[1]), objText(l.obj), owner)
	}
	fetch := fmt.Sprintf("%s, %s := %s", name, errName, call)
	if as, ok := l.stmt.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN && l.scopeOf(as).Lookup(errName) == nil {
		fetch = fmt.Sprintf("var %s *%s%s\n%s%s, %s = %s", name, qual, p.Type, in, name, errName, call)
	}
	retry := func(at string) string {
		return fmt.Sprintf("%s.Retry(%s, func(%s *%s%s) error {\n%s\n%s})", name, ctx, l.obj.Name(), typ, named.Obj().Name(), l.mutate(src, tf, at+"\t"), at)
	}
	var b strings.Builder
	b.WriteString(fetch + "\n" + in)
	if ret, ok := l.stmt.(*ast.ReturnStmt); ok {
		results := func(call string) string {
			return string(src[tf.Offset(ret.Pos()):tf.Offset(l.call.Pos())]) + call + string(src[tf.Offset(l.call.End()):tf.Offset(ret.End())])
		}
		fmt.Fprintf(&b, "if %s != nil {\n%s\t%s\n%s}\n%s%s", errName, in, results(errName), in, in, results(retry(in)))
	} else {
		fmt.Fprintf(&b, "if %s == nil {\n%s\t%s = %s", errName, in, errName, retry(in+"\t"))
		if l.usedAfter && !into {
			deref := ""
			if valueObj(l.obj) {
				deref = "*" // a value takes what the patcher holds (migratevalue.go)
			}
			fmt.Fprintf(&b, "\n%s\t%s = %s%s.Object()", in, l.obj.Name(), deref, name)
		}
		fmt.Fprintf(&b, "\n%s}", in)
		if is, ok := l.stmt.(*ast.IfStmt); ok {
			b.WriteString("\n" + in + "if " + string(src[tf.Offset(is.Cond.Pos()):tf.Offset(is.End())]))
		}
	}
	edits := []analysis.TextEdit{{Pos: l.stmt.Pos(), End: l.stmt.End(), NewText: []byte(b.String())}}
	if l.outer && !l.used && !l.keyObj {
		edits = append(edits, l.text().deleteStmt(l.decl))
	}
	edits = append(edits, importEdits(p.Pkg, importEdit, kube.PatcherPkgPath, ownerImport)...)
	msg := migrateFixPrefix + p.Type + " (Fetch" + p.Type + ", the loop's decision in Retry)"
	if again := l.repeats(); len(again) > 0 {
		msg += "; " + strings.Join(again, ", ") + " runs on each attempt, as in the loop"
	}
	return &analysis.SuggestedFix{Message: msg, TextEdits: edits}, ""
}

// repeats names the calls of the loop's decision with a side effect
// outside it (a package's counter, tokens.Add(1); nextID()), as
// migrateonce.go classifies them: "tokens.Add at line 51". The loop's
// function ran them again on each attempt, a conflict's too, and Retry's
// mutate does the same, so they move unchanged; the fix's note says so.
// A decision that ran once before its write gets them made once
// (sync.OnceValue, migrateonce.go) because Retry would run them more
// often than the handwritten code did; here it runs them as often (at
// d6546153 the note said nothing, and a reader took CrewTokens.Add(1),
// left raw, for a call -fix forgot to make once: issue 80,
// retryonconflict-counter-not-once).
func (l *conflictLoop) repeats() []string {
	list := l.lit.Body.List[l.after:]
	if len(list) == 0 {
		return nil
	}
	s := &onceSpan{si: &l.site, where: l.where, fn: l.lit, from: list[0].Pos(), to: list[len(list)-1].End(), held: []*types.Var{l.obj, l.copyOf}}
	var names []string
	for _, st := range list {
		cur, ok := l.cursor(st)
		if !ok {
			continue
		}
		for c := range cur.Preorder((*ast.CallExpr)(nil)) {
			call := c.Node().(*ast.CallExpr)
			if l.migration.call.Pos() <= call.Pos() && call.End() <= l.migration.call.End() {
				continue // the write, Retry's return nil
			}
			if s.sideEffect(call) != "" {
				names = append(names, types.ExprString(call.Fun)+" at "+l.where(call.Pos()))
			}
		}
	}
	return names
}

// mutate is fn's body after its Get, indented at, the write a return
// nil, a merge patch's base gone.
func (l *conflictLoop) mutate(src []byte, tf *token.File, at string) string {
	list := l.lit.Body.List[l.after:]
	type cut struct {
		pos, end token.Pos
		text     string
	}
	var cuts []cut
	if l.base != nil {
		e := l.text().deleteStmt(l.base)
		cuts = append(cuts, cut{e.Pos, e.End, ""})
	}
	if l.ifErr != nil {
		e := l.text().deleteStmt(l.ifErr)
		cuts = append(cuts, cut{e.Pos, e.End, ""})
	} else {
		cuts = append(cuts, cut{l.migration.call.Pos(), l.migration.call.End(), "nil"})
	}
	slices.SortFunc(cuts, func(a, b cut) int { return int(a.pos) - int(b.pos) })
	var b strings.Builder
	from := tf.LineStart(tf.Line(list[0].Pos()))
	for _, c := range cuts {
		b.Write(src[tf.Offset(from):tf.Offset(c.pos)])
		b.WriteString(c.text)
		from = c.end
	}
	b.Write(src[tf.Offset(from):tf.Offset(l.lit.Body.Rbrace)])
	body := strings.TrimRight(b.String(), "\t\n ")
	in := l.text().indent(list[0].Pos())
	return strings.ReplaceAll("\n"+body, "\n"+in, "\n"+at)[1:]
}

// line is n's line.
func (l *conflictLoop) line(n ast.Node) int { return l.pass.Fset.Position(n.Pos()).Line }

// sameVar reports whether e names the variable v declares or names.
func (l *conflictLoop) sameVar(e, v ast.Expr) bool {
	a, ok1 := ast.Unparen(e).(*ast.Ident)
	b, ok2 := ast.Unparen(v).(*ast.Ident)
	return ok1 && ok2 && l.pass.TypesInfo.ObjectOf(a) != nil && l.pass.TypesInfo.ObjectOf(a) == l.pass.TypesInfo.ObjectOf(b)
}

// returnsErr reports whether is is if err != nil { return err }, no
// else, of the variable v.
func (l *conflictLoop) returnsErr(is *ast.IfStmt, v ast.Expr) bool {
	cond, ok := ast.Unparen(is.Cond).(*ast.BinaryExpr)
	if !ok || cond.Op != token.NEQ || !l.sameVar(cond.X, v) || !isNil(cond.Y) || is.Else != nil || len(is.Body.List) != 1 {
		return false
	}
	r, ok := is.Body.List[0].(*ast.ReturnStmt)
	return ok && len(r.Results) == 1 && l.sameVar(r.Results[0], v)
}

// usesIn yields the identifiers in e.
func (l *conflictLoop) usesIn(e ast.Expr) iter.Seq[*ast.Ident] {
	return func(yield func(*ast.Ident) bool) {
		cur, ok := l.cursor(e)
		if !ok {
			return
		}
		for c := range cur.Preorder((*ast.Ident)(nil)) {
			if !yield(c.Node().(*ast.Ident)) {
				return
			}
		}
	}
}

// hasCall reports whether e calls a function (a conversion is no call).
func (l *conflictLoop) hasCall(e ast.Expr) bool {
	cur, ok := l.cursor(e)
	if !ok {
		return true
	}
	for c := range cur.Preorder((*ast.CallExpr)(nil)) {
		if tv, ok := l.pass.TypesInfo.Types[c.Node().(*ast.CallExpr).Fun]; !ok || !tv.IsType() {
			return true
		}
	}
	return false
}

// owner is the block or clause whose list holds s, in the loop's
// enclosing function.
func (l *conflictLoop) owner(s ast.Stmt) ast.Node {
	cur, ok := l.cursor(s)
	if !ok {
		return nil
	}
	return cur.Parent().Node()
}

// scopeOf is the scope of the block holding s (a function's body: its
// function's).
func (l *conflictLoop) scopeOf(s ast.Stmt) *types.Scope {
	b := l.owner(s)
	if sc := l.pass.TypesInfo.Scopes[b]; sc != nil {
		return sc
	}
	cur, _ := l.cursor(b)
	switch f := cur.Parent().Node().(type) {
	case *ast.FuncDecl:
		return l.pass.TypesInfo.Scopes[f.Type]
	case *ast.FuncLit:
		return l.pass.TypesInfo.Scopes[f.Type]
	}
	return types.NewScope(nil, token.NoPos, token.NoPos, "")
}

// shadows reports whether the block holding s uses, after s, a variable
// name of an enclosing block: one declared at s would take its place.
func (l *conflictLoop) shadows(s ast.Stmt, name string) bool {
	b := l.owner(s)
	cur, ok := l.cursor(b)
	if !ok {
		return true
	}
	for c := range cur.Preorder((*ast.Ident)(nil)) {
		id := c.Node().(*ast.Ident)
		if o := l.pass.TypesInfo.Uses[id]; id.Pos() > s.End() && id.Name == name && o != nil && o.Pos() < b.Pos() {
			return true
		}
	}
	return false
}
