package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// litOnces classifies the calls of lit, a caller's literal given to
// the helper by the call c, whose parameter p is the object
// (migrategenericretry.go): those made once, declared in the caller
// right before its statement calling the helper, or why one keeps the
// helper's write.
func litOnces(o *ownBase, c *ast.CallExpr, lit *ast.FuncLit, p *types.Var) ([]onceCall, string) {
	cs := &site{place: place{calls: calls{pass: o.pass, insp: o.insp}, call: c}}
	cur, ok := cs.cursor(c)
	if !ok {
		return nil, "its caller's file is not seen"
	}
	cs.path = pathOf(cur)
	cs.file, _ = cs.path[len(cs.path)-1].(*ast.File)
	stmt := blockStmtOf(cur)
	if cs.file == nil || stmt == nil {
		return nil, "its call is in no statement of a block to declare the value before"
	}
	s := &onceSpan{si: cs, where: o.where, fn: lit, from: lit.Pos(), to: lit.End(), held: []*types.Var{p}, stmt: stmt}
	return s.calls([]ast.Node{lit.Body})
}

// blockStmtOf is the statement of a block's list (or a case's) holding
// cur's node, or nil.
func blockStmtOf(cur inspector.Cursor) ast.Stmt {
	for c := range cur.Enclosing() {
		s, ok := c.Node().(ast.Stmt)
		if !ok {
			continue
		}
		switch c.Parent().Node().(type) {
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
			return s
		case *ast.FuncLit, *ast.FuncDecl:
			return nil
		}
	}
	return nil
}

// decl is the call's OnceValue (or OnceFunc) declaration, from its text
// in src, followed by a new line and indent.
func (o onceCall) decl(src []byte, tf *token.File, sync, indent string) string {
	call := src[tf.Offset(o.call.Pos()):tf.Offset(o.call.End())]
	if o.typ == "" {
		return fmt.Sprintf("%s := %sOnceFunc(func() { %s })\n%s", o.name, sync, call, indent)
	}
	values := "" // a value and its error: OnceValues
	if strings.HasPrefix(o.typ, "(") {
		values = "s"
	}
	return fmt.Sprintf("%s := %sOnceValue%s(func() %s { return %s })\n%s", o.name, sync, values, o.typ, call, indent)
}

// onceDecls are the plan's declarations, each followed by a new line
// and indent.
func (p *retryPlan) onceDecls(src []byte, tf *token.File, indent, sync string) string {
	var b strings.Builder
	for _, o := range p.once {
		b.WriteString(o.decl(src, tf, sync, indent))
	}
	return b.String()
}

// onceTexts are the calls' replacements in mutate: each OnceValue called.
func (p *retryPlan) onceTexts(exits map[ast.Node]string) map[ast.Node]string {
	if len(p.once) == 0 {
		return exits
	}
	out := map[ast.Node]string{}
	for n, t := range exits {
		out[n] = t
	}
	for _, o := range p.once {
		out[o.call] = o.name + "()"
	}
	return out
}

// litOnceEdits declare each call's OnceValue before its caller's
// statement, with sync imported, and call it in the call's place.
func litOnceEdits(o *ownBase, onces []onceCall, edits []analysis.TextEdit) ([]analysis.TextEdit, string) {
	decls := map[ast.Stmt]*strings.Builder{}
	var order []ast.Stmt
	for _, l := range onces {
		sync, imp, why := l.text.qualifier("sync")
		if why != "" {
			return nil, why
		}
		edits = mergeImport(edits, imp)
		tf := o.pass.Fset.File(l.call.Pos())
		src, err := o.pass.ReadFile(tf.Name())
		if err != nil {
			return nil, fmt.Sprintf("the caller's file %s cannot be read", tf.Name())
		}
		b := decls[l.stmt]
		if b == nil {
			b = &strings.Builder{}
			decls[l.stmt] = b
			order = append(order, l.stmt)
		}
		b.WriteString(l.decl(src, tf, sync, l.text.indent(l.stmt.Pos())))
		edits = append(edits, analysis.TextEdit{Pos: l.call.Pos(), End: l.call.End(), NewText: []byte(l.name + "()")})
	}
	for _, s := range order {
		edits = append(edits, analysis.TextEdit{Pos: s.Pos(), End: s.Pos(), NewText: []byte(decls[s].String())})
	}
	return edits, ""
}

// mergeImport adds the import edit e to edits, joined to one inserting
// at the same place.
func mergeImport(edits []analysis.TextEdit, e *analysis.TextEdit) []analysis.TextEdit {
	if e == nil {
		return edits
	}
	for i, x := range edits {
		if x.Pos == e.Pos && x.End == e.End && x.Pos == x.End {
			edits[i].NewText = append(append([]byte{}, e.NewText...), x.NewText...)
			return edits
		}
	}
	return append(edits, *e)
}
