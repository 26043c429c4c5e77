package migrate

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// ownPatcher says why the status statements stay when the function
// already makes the object's patcher (New<Kind>StatusPatcher(c, obj),
// Fetch<Kind>StatusPatcherInto(ctx, c, key, obj)): a second one over the
// same object would see the first's changes as its own.
func (ms *mutateStmts) ownPatcher(p Patcher) string {
	fn, ok := ms.cs.cursor(ms.cs.enclosingFunc())
	if !ok {
		return ""
	}
	info := ms.cs.pass.TypesInfo
	for c := range fn.Preorder((*ast.CallExpr)(nil)) {
		call := c.Node().(*ast.CallExpr)
		f := calleeFunc(info, call)
		if f == nil || f.Name() != "New"+p.Type && f.Name() != "Fetch"+p.Type+"Into" {
			continue
		}
		for _, a := range call.Args {
			if rootVar(info, a) == ms.obj {
				return fmt.Sprintf("%s makes %s's patcher: make the status decision in its Retry, after CreateOrPatch", ms.cs.where(call.Pos()), ms.obj.Name())
			}
		}
	}
	for c := range fn.Preorder((*ast.CallExpr)(nil)) {
		call := c.Node().(*ast.CallExpr)
		if _, ok := statusReceiver(call); ok && len(call.Args) > 1 && rootVar(info, call.Args[1]) == ms.obj {
			return fmt.Sprintf("%s writes %s's status too: a patcher made after CreateOrPatch would not be that write's; make both in one patcher", ms.cs.where(call.Pos()), ms.obj.Name())
		}
	}
	return ""
}

// fix is the move: the status statements deleted from the mutate and
// made after the call's statement as in CreateOrPatch's doc above.
func (ms *mutateStmts) fix(as *ast.AssignStmt, p Patcher, onces []onceCall) (*analysis.SuggestedFix, string) {
	si := ms.cs
	t := si.text()
	pass := si.pass
	q, imp, why := t.qualifier(p.Pkg)
	if why != "" {
		return nil, why
	}
	var edits []analysis.TextEdit
	edits = mergeImport(edits, imp)
	syncQ := ""
	if len(onces) > 0 {
		var simp *analysis.TextEdit
		if syncQ, simp, why = t.qualifier("sync"); why != "" {
			return nil, why
		}
		edits = mergeImport(edits, simp)
	}
	objType := ""
	if objType, why = ms.typeText(); why != "" {
		return nil, why
	}
	cu := "controllerutil."
	if sel, ok := ast.Unparen(si.call.Fun).(*ast.SelectorExpr); ok {
		cu = t.source(sel.X) + "."
	}
	taken := map[string]bool{}
	fresh := func(base string) string {
		name := base
		for i := 2; taken[name] || t.nameTaken(name); i++ {
			name = fmt.Sprintf("%s%d", base, i)
		}
		taken[name] = true
		return name
	}
	opID := as.Lhs[0].(*ast.Ident)
	op := opID.Name
	ind := t.indent(as.Pos())
	if op == "_" {
		// _, err := becomes op, err :=; _, err = is given a declared op
		// (op, err := would shadow an err of an outer scope). The fix of
		// each such call before it in the function names one too: its
		// names are taken first, so that fixes applied together differ.
		for range ms.blankOpsBefore(as) {
			fresh("op")
		}
		op = fresh("op")
		text := op
		if as.Tok != token.DEFINE {
			text = fmt.Sprintf("var %s %sOperationResult\n%s%s", op, cu, ind, op)
		}
		edits = append(edits, analysis.TextEdit{Pos: opID.Pos(), End: opID.End(), NewText: []byte(text)})
	}
	errName := as.Lhs[1].(*ast.Ident).Name
	tf := pass.Fset.File(as.Pos())
	src, err := pass.ReadFile(tf.Name())
	if err != nil {
		return nil, "its file cannot be read"
	}
	obj := ms.obj.Name()
	made := fmt.Sprintf("%sNew%s(%s, %s)", q, p.Type, t.source(si.call.Args[1]), obj)
	tracked := ms.opReadAfter(as)
	var b strings.Builder
	fmt.Fprintf(&b, "\n%sif %s == nil && %s != %sOperationResultCreated {\n%s\t", ind, errName, op, cu, ind)
	for _, o := range onces {
		b.WriteString(o.decl(src, tf, syncQ, ind+"\t"))
	}
	pv, changed := "", ""
	if tracked {
		pv, changed = fresh(obj+"Patcher"), fresh("statusChanged")
		fmt.Fprintf(&b, "%s := %s\n%s\t%s := false\n%s\t", pv, made, ind, changed, ind)
		made = pv
	}
	fmt.Fprintf(&b, "%s = %s.Retry(%s, func(%s %s) error {\n", errName, made, t.source(si.call.Args[0]), obj, objType)
	calls := map[ast.Node]string{}
	for _, o := range onces {
		calls[o.call] = o.name + "()"
	}
	for _, s := range ms.status {
		move, stay := ms.halves(s)
		var drops []analysis.TextEdit
		for _, st := range stay {
			drops = append(drops, t.deleteStmt(st))
		}
		fmt.Fprintf(&b, "%s\t\t%s\n", ind, replaced(src, tf, s, calls, drops, "\n"+ind+"\t", "\n"+ind+"\t\t"))
		for _, st := range move {
			edits = append(edits, t.deleteStmt(st))
		}
	}
	if tracked {
		fmt.Fprintf(&b, "%s\t\t%s = %s.HasChanges()\n", ind, changed, pv)
	}
	fmt.Fprintf(&b, "%s\t\treturn nil\n%s\t})\n", ind, ind)
	if tracked {
		fmt.Fprintf(&b, "%[1]s\tif %[2]s == nil && %[3]s {\n%[1]s\t\tif %[4]s == %[5]sOperationResultUpdated {\n%[1]s\t\t\t%[4]s = %[5]sOperationResultUpdatedStatus\n%[1]s\t\t} else {\n%[1]s\t\t\t%[4]s = %[5]sOperationResultUpdatedStatusOnly\n%[1]s\t\t}\n%[1]s\t}\n",
			ind, errName, changed, op, cu)
	}
	fmt.Fprintf(&b, "%s}", ind)
	at := as.End()
	// After a comment ending the call's line.
	if line, _, _ := bytes.Cut(src[tf.Offset(at):], []byte("\n")); bytes.HasPrefix(bytes.TrimLeft(line, " \t"), []byte("//")) {
		at += token.Pos(len(line))
	}
	edits = append(edits, analysis.TextEdit{Pos: at, End: at, NewText: []byte(b.String())})
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].Pos < edits[j].Pos })
	msg := fmt.Sprintf("%s%s: the mutate's status statements made in its Retry after CreateOrPatch, unless it created the object", migrateFixPrefix, p.Type)
	return &analysis.SuggestedFix{Message: msg, TextEdits: edits}, ""
}

// typeText is the object's type as the file names it (*v1.Widget), or
// why the file cannot name it without an import.
func (ms *mutateStmts) typeText() (string, string) {
	bad := ""
	s := types.TypeString(ms.obj.Type(), func(p *types.Package) string {
		q, imp, why := ms.cs.text().qualifier(p.Path())
		if why != "" || imp != nil {
			bad = "the object's type is of " + p.Path() + ", which this file does not import"
		}
		return strings.TrimSuffix(q, ".")
	})
	return s, bad
}

// opReadAfter reports whether the call's operation result is read after
// its statement: then the Retry's change of the status is told in it.
func (ms *mutateStmts) opReadAfter(as *ast.AssignStmt) bool {
	info := ms.cs.pass.TypesInfo
	id := as.Lhs[0].(*ast.Ident)
	v := info.ObjectOf(id)
	if v == nil || id.Name == "_" {
		return false
	}
	fn := ms.cs.enclosingFunc()
	read := false
	ast.Inspect(fn, func(n ast.Node) bool {
		if x, ok := n.(*ast.Ident); ok && x.Pos() > as.End() && info.Uses[x] == v {
			read = true
		}
		return !read
	})
	return read
}

// replaced is s's text with each call of calls (in s) replaced and the
// text of drops (in s, of a split if's statements staying) left out, its
// lines after the first moved from one indent to another.
func replaced(src []byte, tf *token.File, s ast.Stmt, calls map[ast.Node]string, drops []analysis.TextEdit, from, to string) string {
	type cut struct {
		at, end int
		text    string
	}
	var cuts []cut
	for n, text := range calls {
		if n.Pos() >= s.Pos() && n.End() <= s.End() {
			cuts = append(cuts, cut{tf.Offset(n.Pos()), tf.Offset(n.End()), text})
		}
	}
	for _, d := range drops {
		cuts = append(cuts, cut{tf.Offset(d.Pos), tf.Offset(d.End), ""})
	}
	sort.Slice(cuts, func(i, j int) bool { return cuts[i].at < cuts[j].at })
	var b strings.Builder
	at := tf.Offset(s.Pos())
	for _, c := range cuts {
		b.Write(src[at:c.at])
		b.WriteString(c.text)
		at = c.end
	}
	b.Write(src[at:tf.Offset(s.End())])
	return strings.ReplaceAll(b.String(), from, to)
}

// blankOpsBefore are the CreateOrPatch statements before as in its
// function declaration whose operation result is not kept (_, err), each
// of which its own fix names as this one's is named.
func (ms *mutateStmts) blankOpsBefore(as *ast.AssignStmt) []*ast.AssignStmt {
	var fn ast.Node
	for _, n := range ms.cs.path {
		if _, ok := n.(*ast.FuncDecl); ok {
			fn = n
		}
	}
	if fn == nil {
		return nil
	}
	fc, ok := ms.cs.cursor(fn)
	if !ok {
		return nil
	}
	var out []*ast.AssignStmt
	for c := range fc.Preorder((*ast.AssignStmt)(nil)) {
		a := c.Node().(*ast.AssignStmt)
		if a.Pos() >= as.Pos() || len(a.Lhs) != 2 || len(a.Rhs) != 1 {
			continue
		}
		id, ok := a.Lhs[0].(*ast.Ident)
		call, isCall := ast.Unparen(a.Rhs[0]).(*ast.CallExpr)
		if !ok || id.Name != "_" || !isCall {
			continue
		}
		if f := calleeFunc(ms.cs.pass.TypesInfo, call); f != nil && f.Name() == "CreateOrPatch" && f.Pkg() != nil && f.Pkg().Path() == "sigs.k8s.io/controller-runtime/pkg/controller/controllerutil" {
			out = append(out, a)
		}
	}
	return out
}
