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

// The text of a write moved into Retry (migrateretry.go): mutate's body
// (a guard's condition checked again in it), the decision's lines gone.

// retryText is the write's Retry: the block as mutate's body, on the
// object mutate is given, under the object's name.
func (r retries) retryText(name string, plan *retryPlan) (string, bool) {
	typ, imp, why := r.text().qualifier(r.objPkg())
	if why != "" || imp != nil {
		return "", false
	}
	named := r.objNamed()
	if named == nil {
		return "", false
	}
	tf := r.pass.Fset.File(plan.stmts[0].Pos())
	src, err := r.pass.ReadFile(tf.Name())
	if err != nil {
		return "", false
	}
	indent := r.text().indent(plan.write.Pos())
	body := r.asObject(src, tf, plan.stmts[0].Pos(), plan.stmts[len(plan.stmts)-1].End(), itemBaseDropped(r, plan, plan.carriedTexts(plan.onceTexts(r.exitTexts(plan, false)))))
	if plan.detached {
		body = strings.ReplaceAll(body, "\n"+r.text().indent(plan.stmts[0].Pos()), "\n"+indent)
	}
	ret := "\n" + indent + "\treturn nil"
	if r.apply != nil {
		// mutate gives the configuration's status to ApplyStatus (migrateapplyretry.go).
		body += "\n" + indent + "return " + name + ".Patcher().ApplyStatus(" + r.apply.statusText() + ")"
		ret = ""
	}
	body = strings.ReplaceAll(body, "\n", "\n\t")
	if plan.guard != nil {
		cond := r.asObject(src, tf, plan.guard.Cond.Pos(), plan.guard.Cond.End(), nil)
		body = "if " + cond + " {\n" + indent + "\t\t" + body + "\n" + indent + "\t}"
		ret = "\n" + indent + "\treturn nil"
	}
	return fmt.Sprintf("%s.Retry(%s, func(%s *%s%s) error {\n%s\t%s%s\n%s})",
		name, types.ExprString(r.call.Args[0]), r.obj.Name(), typ, named.Obj().Name(), indent, body, ret, indent), true
}

// asObject is the source from pos to end with each use of the base the
// object is a copy of (copyOf) named as the object: the copy's reads of
// it (s.Generation, s.Spec.Size, only values: copiedObject.anchor) are,
// on Retry's first call, the values the copy holds, and after a conflict
// the fresh object's, where the base's would replay the cached copy's.
// Each exit of exits is replaced by its text in mutate
// (migrateretryexit.go).
func (r retries) asObject(src []byte, tf *token.File, pos, end token.Pos, exits map[ast.Node]string) string {
	type edit struct {
		pos, end token.Pos
		text     string
	}
	var edits []edit
	if r.copyOf != nil {
		for c := range r.usesOf(r.enclosingFunc(), r.copyOf, pos, end) {
			edits = append(edits, edit{c.Node().Pos(), c.Node().End(), r.obj.Name()})
		}
	}
	for n, text := range exits {
		if pos <= n.Pos() && n.End() <= end {
			edits = append(edits, edit{n.Pos(), n.End(), text})
		}
	}
	slices.SortFunc(edits, func(a, b edit) int { return int(a.pos - b.pos) })
	var b strings.Builder
	at := pos
	for _, e := range edits {
		b.Write(src[tf.Offset(at):tf.Offset(e.pos)])
		b.WriteString(e.text)
		at = e.end
	}
	b.Write(src[tf.Offset(at):tf.Offset(end)])
	return b.String()
}

// objNamed is the object's named type (the pointer's element).
func (r retries) objNamed() *types.Named {
	t := r.obj.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
}

func (r retries) objPkg() string {
	if n := r.objNamed(); n != nil && n.Obj().Pkg() != nil {
		return n.Obj().Pkg().Path()
	}
	return ""
}

// deleteBlock is the edits dropping the block's lines, which are
// mutate's, and the labels only its exits named (labelEdits).
func (r retries) deleteBlock(p *retryPlan) []analysis.TextEdit {
	tf := r.pass.Fset.File(p.stmts[0].Pos())
	end := tf.LineStart(tf.Line(p.write.Pos()))
	if p.detached {
		end = tf.LineStart(tf.Line(p.stmts[len(p.stmts)-1].End()) + 1)
	}
	return append(labelEdits(r, p), analysis.TextEdit{Pos: tf.LineStart(tf.Line(p.stmts[0].Pos())), End: end})
}

// onceEdits declare the plan's OnceValues before the write's statement
// (or the guard that becomes it), with sync imported (migrateretryonce.go).
func onceEdits(r retries, p *retryPlan) ([]analysis.TextEdit, *analysis.TextEdit, bool) {
	at := p.write.Pos()
	carried := p.carriedDecls(r.text().indent(at)) // migrateretrycarry.go
	if len(p.once) == 0 {
		if carried == "" {
			return nil, nil, true
		}
		return []analysis.TextEdit{{Pos: at, End: at, NewText: []byte(carried)}}, nil, true
	}
	sync, imp, why := r.text().qualifier("sync")
	if why != "" {
		return nil, nil, false
	}
	tf := r.pass.Fset.File(at)
	src, err := r.pass.ReadFile(tf.Name())
	if err != nil {
		return nil, nil, false
	}
	return []analysis.TextEdit{{Pos: at, End: at, NewText: []byte(carried + p.onceDecls(src, tf, r.text().indent(at), sync))}}, imp, true
}

// retryEdits are the edits of the write moved into Retry (r.retry) on the
// patcher named name, for -fix's own patcher and the code's
// (liferetry.go) alike: the decision's lines gone (a guard stays around
// the Retry), and the decision's calls made once declared before it.
// call replaces the write's call; imp imports sync. ok is false when the Retry's
// text cannot be written (the write is a Flush); why says what keeps the
// write when the once calls' sync cannot be imported.
func retryEdits(r retries, name string) (edits []analysis.TextEdit, call string, imp *analysis.TextEdit, ok bool, why string) {
	p := r.retry
	if len(p.stmts) == 0 && p.placed != nil {
		// The literal changes nothing before its write: a Flush.
		call = fmt.Sprintf("%s.Flush(%s)", name, types.ExprString(r.call.Args[0]))
	} else {
		text, ok := r.retryText(name, p)
		if !ok {
			return nil, "", nil, false, ""
		}
		once, oimp, ok := onceEdits(r, p)
		if !ok {
			return nil, "", nil, false, "the decision's calls made once need sync, which this file cannot import"
		}
		edits, call, imp = append(once, r.deleteBlock(p)...), text, oimp
	}
	if p.placed != nil {
		pe, pimp, pcall, ok := placedEdits(r, name, p.placed, call)
		if !ok {
			return nil, "", nil, false, "the decision's own Retry cannot be written at its place"
		}
		edits, call = append(edits, pe...), pcall
		if imp == nil {
			imp = pimp
		}
	}
	return edits, call, imp, true, ""
}
