package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/analysis"
)

// The text of a hand conflict loop (migratehandloop.go) made a Retry:
// of the patcher of the object's status writes before the loop, when
// the last of them is on every path to it (or skipped only by a guard
// if !equality.Semantic.DeepEqual(original, &obj.Status), original the
// status as the patcher's base holds it) and nothing changes the object
// between it and the loop (Retry refuses a status changed before it,
// which the loop's Get dropped); else of a Fetch<Kind>StatusPatcherInto
// of the object, in the loop's place, when no write of it comes before.

// fix is the loop's move, or why it stays.
func (h *handLoop) fix(p Patcher, files Files, ws []*Write, opts Options) (*analysis.SuggestedFix, string) {
	name, why := h.lifePatcher(files, ws, opts)
	if why != "" {
		return nil, h.shapeWhy(fmt.Sprintf("the write is in a conflict loop written by hand at line %d, and %s", h.line(h.loop), why))
	}
	// The object's writes before the loop move onto name's patcher with
	// it (planGroup): handing the object to them keeps nothing unseen.
	h.moved = map[*ast.CallExpr]bool{h.call: true}
	fn := h.enclosingFunc()
	for _, o := range ws {
		if call, ok := files.Calls[o.Lparen]; ok && name != "" && call.Pos() >= fn.Pos() && call.End() <= h.loop.Pos() && len(call.Args) >= 2 && passesObj(h.pass.TypesInfo, h.obj, call.Args[1]) {
			h.moved[call] = true
		}
	}
	if why := h.checks().unsentMutations(h.call); why != "" {
		return nil, why
	}
	return h.edits(p, name)
}

// lifePatcher is the patcher of the object's last status write before
// the loop, "" when there is none, or why the loop cannot be its Retry.
func (h *handLoop) lifePatcher(files Files, ws []*Write, opts Options) (string, string) {
	fn := h.enclosingFunc()
	var last *Write
	var lastCall *ast.CallExpr
	for _, o := range ws {
		call, ok := files.Calls[o.Lparen]
		if !ok || o.Generated || call.End() > h.loop.Pos() || call.Pos() < fn.Pos() || len(call.Args) < 2 || !passesObj(h.pass.TypesInfo, h.obj, call.Args[1]) {
			continue
		}
		if lastCall == nil || call.Pos() > lastCall.Pos() {
			last, lastCall = o, call
		}
	}
	if last == nil {
		return "", ""
	}
	at := h.line(lastCall)
	fix, why := Fix(h.pass, files, opts, ws, last)
	if fix == nil {
		return "", fmt.Sprintf("the status write of %s at line %d before it stays (%s): the loop would make a second patcher of %s", h.obj.Name(), at, why, h.obj.Name())
	}
	name := onePatcher(fix)
	if name == "" {
		return "", fmt.Sprintf("the fix of the status write of %s at line %d names no one patcher", h.obj.Name(), at)
	}
	for _, e := range fix.TextEdits {
		if e.Pos < h.loop.End() && e.End > h.loop.Pos() {
			return "", fmt.Sprintf("the fix of the status write of %s at line %d edits the loop", h.obj.Name(), at)
		}
	}
	s := h.statementOf(lastCall)
	if s == nil {
		return "", fmt.Sprintf("the status write of %s at line %d is not on every path to it: a status changed there and not written, which the loop's Get dropped, Retry would refuse", h.obj.Name(), at)
	}
	if why := h.unchangedSince(s); why != "" {
		return "", why
	}
	return name, ""
}

// statementOf is the statement, in a list around the loop, holding the
// write call: the write's own (err := write, if err := write; ...), or
// an if guarding it by the status's difference from its base
// (guardsStatus). nil when neither.
func (h *handLoop) statementOf(call *ast.CallExpr) ast.Stmt {
	lists := h.enclosingLists()
	for _, list := range lists[1:] {
		for _, s := range list {
			if s.Pos() > call.Pos() || call.End() > s.End() {
				continue
			}
			if direct(s, call) {
				return s
			}
			if is, ok := s.(*ast.IfStmt); ok && is.Init == nil && is.Else == nil && h.guardsStatus(is) && slices.ContainsFunc(is.Body.List, func(b ast.Stmt) bool { return direct(b, call) }) {
				return s
			}
			return nil
		}
	}
	return nil
}

// direct reports whether call is in s outside any block of it: s runs
// it whenever s runs (an if's init, not its body).
func direct(s ast.Stmt, call *ast.CallExpr) bool {
	if s.Pos() > call.Pos() || call.End() > s.End() {
		return false
	}
	in := false
	ast.Inspect(s, func(n ast.Node) bool {
		if b, ok := n.(*ast.BlockStmt); ok && b.Pos() <= call.Pos() && call.End() <= b.End() {
			in = true
		}
		return !in
	})
	return !in
}

// guardsStatus reports whether is's condition is !DeepEqual(original,
// &obj.Status) (either order, reflect's or equality.Semantic's), with
// original := obj.Status.DeepCopy() (or *...) taken with no status
// change since the object's read: skipped, the status is its base's.
func (h *handLoop) guardsStatus(is *ast.IfStmt) bool {
	u, ok := ast.Unparen(is.Cond).(*ast.UnaryExpr)
	if !ok || u.Op != token.NOT {
		return false
	}
	call, ok := ast.Unparen(u.X).(*ast.CallExpr)
	if !ok || len(call.Args) != 2 {
		return false
	}
	if fn := kube.CalledFunc(h.pass, call); fn == nil || fn.Name() != "DeepEqual" {
		return false
	}
	st := h.obj.Name() + ".Status"
	a, b := types.ExprString(ast.Unparen(call.Args[0])), types.ExprString(ast.Unparen(call.Args[1]))
	orig := call.Args[0]
	if a == st || a == "&"+st {
		orig, b = call.Args[1], a
	}
	if b != st && b != "&"+st {
		return false
	}
	// original, or original.Status of original := obj.DeepCopy().
	copied := st + ".DeepCopy()"
	orig = ast.Unparen(orig)
	if u, ok := orig.(*ast.UnaryExpr); ok && u.Op == token.AND {
		orig = ast.Unparen(u.X)
	}
	if sel, ok := orig.(*ast.SelectorExpr); ok && sel.Sel.Name == "Status" {
		orig, copied = sel.X, h.obj.Name()+".DeepCopy()"
	}
	id, ok := orig.(*ast.Ident)
	v, _ := h.pass.TypesInfo.Uses[id].(*types.Var)
	def, val := h.definition(v)
	if !ok || def == nil || (types.ExprString(val) != copied && types.ExprString(val) != "*"+copied) {
		return false
	}
	anchor := h.readBefore(def.Pos())
	return anchor != nil && !h.reads().statusChangedBetween(anchor.End(), def.Pos())
}

// readBefore is the last statement before pos, in a list around the
// loop, reading the object with Get.
func (h *handLoop) readBefore(pos token.Pos) ast.Stmt {
	var at ast.Stmt
	for _, list := range h.enclosingLists()[1:] {
		for _, s := range list {
			if s.End() <= pos && h.reads().isGetStmt(s) && (at == nil || s.Pos() > at.Pos()) {
				at = s
			}
		}
	}
	return at
}

// unchangedSince says why the object may not be what the patcher holds,
// its status unchanged, between the statement s of its last write and
// the loop: a node of its life there that changes it or reads it again.
func (h *handLoop) unchangedSince(s ast.Stmt) string {
	l := newLife(&h.site, h.obj)
	if l == nil {
		return "its function's graph is not seen"
	}
	for _, b := range l.g.Blocks {
		for _, n := range b.Nodes {
			if b.Live && n.Pos() >= s.End() && n.End() <= h.loop.Pos() && l.event(n) != untouched {
				return fmt.Sprintf("%s is changed or read again at line %d, after its last status write at line %d: Retry would refuse a status left unwritten, which the loop's Get dropped", h.obj.Name(), h.line(n), h.line(s))
			}
		}
	}
	return ""
}

// edits replaces the loop with the patcher's Retry (name's, or a
// Fetch...Into's made in its place when name is ""), the decision its
// mutate, the spelling's statements after it.
func (h *handLoop) edits(p Patcher, name string) (*analysis.SuggestedFix, string) {
	r := retries{migration: h.migration}
	typ, imp, why := h.text().qualifier(r.objPkg())
	named := r.objNamed()
	if why != "" || imp != nil || named == nil {
		return nil, "the type of " + h.obj.Name() + " cannot be named in this file"
	}
	tf := h.pass.Fset.File(h.loop.Pos())
	src, err := h.pass.ReadFile(tf.Name())
	if err != nil {
		return nil, err.Error()
	}
	errName := h.write.Lhs[0].(*ast.Ident).Name
	in := h.text().indent(h.loop.Pos())
	ctx := h.text().source(h.get.Args[0])
	define := h.write.Tok == token.DEFINE
	if _, o := h.scopeOfLoop().LookupParent(errName, h.loop.Pos()); define && o != nil {
		return nil, fmt.Sprintf("the loop's %s, declared in it, is also a name around it", errName)
	}
	var b strings.Builder
	var edits []analysis.TextEdit
	how := " (the hand conflict loop's decision in Retry of "
	if name == "" {
		if !p.Into {
			return nil, "the generated package has no Fetch" + p.Type + "Into to read " + h.obj.Name() + " into itself"
		}
		qual, importEdit, why := h.text().qualifier(p.Pkg)
		if why != "" {
			return nil, why
		}
		owner, ownerImport, why := h.patcherOptions(h.text())
		if why != "" {
			return nil, why
		}
		name = h.freePatcherName()
		fetch := fmt.Sprintf("%sFetch%sInto(%s, %s, %s, %s%s)", qual, p.Type, ctx, h.clientText, h.text().source(h.get.Args[1]), objText(h.obj), owner)
		if define {
			fmt.Fprintf(&b, "%s, %s := %s\n%s", name, errName, fetch, in)
			define = false
		} else {
			fmt.Fprintf(&b, "var %s *%s%s\n%s%s, %s = %s\n%s", name, qual, p.Type, in, name, errName, fetch, in)
		}
		fmt.Fprintf(&b, "if %s != nil %s\n%s", errName, h.reindent(src, tf, h.check.Body.Pos(), h.check.Body.End(), in), in)
		edits = append(edits, importEdits(p.Pkg, importEdit, kube.PatcherPkgPath, ownerImport)...)
		how += name + ", Fetch" + p.Type + "Into"
	} else {
		how += name
	}
	onces, why := onceCalls(r, h.enclosingFunc(), stmtNodes(h.decide))
	if why != "" {
		return nil, why
	}
	sync := ""
	if len(onces) > 0 {
		q, syncImp, why := h.text().qualifier("sync")
		if why != "" {
			return nil, why
		}
		sync = q
		edits = mergeImport(edits, syncImp)
		for _, o := range onces {
			b.WriteString(o.decl(src, tf, sync, in))
		}
	}
	assign := "="
	if define {
		assign = ":="
	}
	fmt.Fprintf(&b, "%s %s %s.Retry(%s, func(%s *%s%s) error {\n%s\n%s})", errName, assign, name, ctx, h.obj.Name(), typ, named.Obj().Name(), h.mutate(src, tf, onces), in)
	switch {
	case h.orElse != nil:
		fmt.Fprintf(&b, "\n%sif %s != nil %s", in, errName, h.reindent(src, tf, h.orElse.Pos(), h.orElse.End(), in))
	case len(h.tail) > 0:
		from := tf.LineStart(tf.Line(h.tail[0].Pos()))
		fmt.Fprintf(&b, "\n%s%s", in, strings.TrimPrefix(h.reindent(src, tf, from, h.tail[len(h.tail)-1].End(), in), in+"\t"))
	}
	edits = append([]analysis.TextEdit{{Pos: h.loop.Pos(), End: h.loop.End(), NewText: []byte(b.String())}}, edits...)
	how += "; " + h.boundNote()
	for _, o := range onces {
		once := "OnceValue"
		if o.typ == "" {
			once = "OnceFunc" // a result unused (onceCall.decl)
		}
		how += fmt.Sprintf("; %s at %s is made once (%s%s)", types.ExprString(o.call.Fun), h.where(o.call.Pos()), sync, once)
	}
	return &analysis.SuggestedFix{Message: migrateFixPrefix + p.Type + how + ")", TextEdits: edits}, ""
}

// boundNote says what becomes of the loop's count of attempts.
func (h *handLoop) boundNote() string {
	if h.bound == "" {
		return "the unbounded loop's attempts are Retry's (patcher.DefaultBackoff)"
	}
	return fmt.Sprintf("the loop's bound of %s attempts is replaced by Retry's (patcher.DefaultBackoff)", h.bound)
}

// mutate is the decision's text, the write its return nil (the rest of
// its line kept: a comment), each call made once its OnceValue's.
func (h *handLoop) mutate(src []byte, tf *token.File, onces []onceCall) string {
	var b strings.Builder
	from := tf.LineStart(tf.Line(h.write.Pos()))
	if len(h.decide) > 0 {
		from = tf.LineStart(tf.Line(h.decide[0].Pos()))
	}
	slices.SortFunc(onces, func(a, b onceCall) int { return int(a.call.Pos() - b.call.Pos()) })
	for _, o := range onces {
		b.Write(src[tf.Offset(from):tf.Offset(o.call.Pos())])
		b.WriteString(o.name + "()")
		from = o.call.End()
	}
	b.Write(src[tf.Offset(from):tf.Offset(h.write.Pos())])
	b.WriteString("return nil")
	eol := tf.Offset(h.write.End())
	for eol < len(src) && src[eol] != '\n' {
		eol++
	}
	b.Write(src[tf.Offset(h.write.End()):eol])
	return b.String()
}

// reindent is src from pos to end, its lines after the first moved from
// the loop body's indent to in's.
func (h *handLoop) reindent(src []byte, tf *token.File, pos, end token.Pos, in string) string {
	return strings.ReplaceAll(string(src[tf.Offset(pos):tf.Offset(end)]), "\n"+in+"\t", "\n"+in)
}

// scopeOfLoop is the scope of the block holding the loop.
func (h *handLoop) scopeOfLoop() *types.Scope {
	for i := len(h.path) - 1; i >= 0; i-- {
		if h.path[i] == ast.Node(h.loop) {
			for j := i + 1; j < len(h.path); j++ {
				if sc := h.pass.TypesInfo.Scopes[h.path[j]]; sc != nil {
					return sc
				}
				if fd, ok := h.path[j].(*ast.FuncDecl); ok {
					return h.pass.TypesInfo.Scopes[fd.Type]
				}
			}
		}
	}
	return types.Universe
}
