package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"
	"unicode"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// A caller's literal given to an ownBase whose mutate becomes the
// patcher's Retry (migrategenericretry.go) may hand out a value
// (cargoTokens.Add(1)): Retry's attempts would each hand out another.
// As for a direct write's decision (migrateretryonce.go), the call is
// made once: a sync.OnceValue (a sync.OnceFunc for a call whose result
// is unused) declared in the caller right before the statement calling
// the helper, called in the literal in the call's place. What cannot be
// so made once (in a loop or a literal of the literal, given its object
// or one of its locals, a type the caller's file cannot name) keeps the
// helper's write, naming the call.

// A litOnce is a call of a caller's literal made once, declared before
// the caller's statement.
type litOnce struct {
	call *ast.CallExpr
	stmt ast.Stmt // the caller's statement calling the helper
	name string
	typ  string // "" for a sync.OnceFunc
	text text   // the caller's file's
}

// litOnces are the calls of lit (given to the helper by the call c) of
// a method of a variable declared outside lit, each made once; or why
// one cannot be.
func litOnces(o *ownBase, c *ast.CallExpr, lit *ast.FuncLit, p *types.Var) ([]litOnce, string) {
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
	t := cs.text()
	var out []litOnce
	why := ""
	taken := map[string]bool{}
	var stack []ast.Node
	ast.Inspect(lit.Body, func(x ast.Node) bool {
		if x == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		stack = append(stack, x)
		call, ok := x.(*ast.CallExpr)
		if why != "" || !ok {
			return true
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if s := o.pass.TypesInfo.Selections[sel]; s == nil || s.Kind() != types.MethodVal {
			return true
		}
		v := rootVarOf(o.pass.TypesInfo, sel.X)
		if v == nil || v == p || (v.Pos() >= lit.Pos() && v.Pos() < lit.End()) {
			return true
		}
		if v.Parent() != o.pass.Pkg.Scope() && v.Pos() >= stmt.Pos() {
			why = fmt.Sprintf("%s is declared in the statement calling the helper", v.Name())
			return true
		}
		for _, n := range stack[1 : len(stack)-1] {
			switch n.(type) {
			case *ast.ForStmt, *ast.RangeStmt, *ast.FuncLit:
				why = fmt.Sprintf("it is called in a loop or a literal of the literal at %s", o.where(n.Pos()))
				return true
			}
		}
		ast.Inspect(call, func(y ast.Node) bool {
			if id, ok := y.(*ast.Ident); ok {
				if u, ok := o.pass.TypesInfo.Uses[id].(*types.Var); ok && (u == p || (u.Pos() >= lit.Pos() && u.Pos() < lit.End())) {
					why = fmt.Sprintf("it is given %s, which the literal holds", u.Name())
				}
			}
			return why == ""
		})
		if why != "" {
			return true
		}
		typ := ""
		if _, unused := stack[len(stack)-2].(*ast.ExprStmt); !unused {
			if typ, why = litOnceType(o, t, call); why != "" {
				return true
			}
		}
		out = append(out, litOnce{call: call, stmt: stmt, name: litOnceName(t, v, sel.Sel.Name, taken), typ: typ, text: t})
		return true
	})
	return out, why
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

// litOnceType is the call's one result's type as the caller's file
// names it, or why there is none.
func litOnceType(o *ownBase, t text, call *ast.CallExpr) (string, string) {
	sig, ok := o.pass.TypesInfo.TypeOf(call.Fun).(*types.Signature)
	if !ok || sig.Results().Len() != 1 {
		return "", "it returns other than one value"
	}
	bad := ""
	typ := types.TypeString(sig.Results().At(0).Type(), func(p *types.Package) string {
		q, imp, why := t.qualifier(p.Path())
		if why != "" || imp != nil {
			bad = "its result's type is of " + p.Path() + ", which the caller's file does not import"
		}
		return strings.TrimSuffix(q, ".")
	})
	return typ, bad
}

// litOnceName is the OnceValue's variable: the receiver's and method's
// names (cargoTokensAdd), not one the caller's function takes.
func litOnceName(t text, v *types.Var, method string, taken map[string]bool) string {
	m := []rune(method)
	m[0] = unicode.ToUpper(m[0])
	base := v.Name() + string(m)
	name := base
	for i := 2; taken[name] || t.nameTaken(name); i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	taken[name] = true
	return name
}

// litOnceEdits declare each call's OnceValue before its caller's
// statement, with sync imported, and call it in the call's place.
func litOnceEdits(o *ownBase, onces []litOnce, edits []analysis.TextEdit) ([]analysis.TextEdit, string) {
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
		text := src[tf.Offset(l.call.Pos()):tf.Offset(l.call.End())]
		b := decls[l.stmt]
		if b == nil {
			b = &strings.Builder{}
			decls[l.stmt] = b
			order = append(order, l.stmt)
		}
		in := l.text.indent(l.stmt.Pos())
		if l.typ == "" {
			fmt.Fprintf(b, "%s := %sOnceFunc(func() { %s })\n%s", l.name, sync, text, in)
		} else {
			fmt.Fprintf(b, "%s := %sOnceValue(func() %s { return %s })\n%s", l.name, sync, l.typ, text, in)
		}
		edits = append(edits, analysis.TextEdit{Pos: l.call.Pos(), End: l.call.End(), NewText: []byte(l.name + "()")})
	}
	for _, s := range order {
		edits = append(edits, analysis.TextEdit{Pos: s.Pos(), End: s.Pos(), NewText: []byte(decls[s].String())})
	}
	return edits, ""
}

// rootVarOf is the variable at the root of e (tokens of tokens.n.Add).
func rootVarOf(info *types.Info, e ast.Expr) *types.Var {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			v, _ := info.ObjectOf(x).(*types.Var)
			return v
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		default:
			return nil
		}
	}
}
