package migrate

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// A List item whose decision moves into Retry (migrateretry.go) and reads
// its status (issue 80: "a write to a List item ... is made with
// Fetch/Retry, never a plain Flush on a cached copy"): a patcher made
// with New over the listed copy has Retry's first attempt decide on that
// copy, and when it is behind (the parent's List before the cache saw
// this process's last write of the item) the attempt hands out a token
// whose write the server refuses, the next attempt reading the one
// already stored: a decision made twice. The item's patcher is made with
// Fetch<Kind>StatusPatcherInto(ctx, c, client.ObjectKeyFromObject(item),
// item), a read of the item into itself (what the loop reads of it after
// the write stays the written object, as the write's answer was), so the
// first attempt decides on the stored status; Fetch's error is handled
// as the write's was: the write's statement is
// if err := write; err != nil {...}, and its body handles the Fetch's.

// itemFetch is the text making the item's patcher with a fresh read and
// handling its error as the write's statement does, and the import of
// controller-runtime's client it needs; ok false where the write's
// statement is not if err := write; err != nil {...}, or its body names
// a local declared after the item (the patcher is then New's, over the
// listed copy).
func itemFetch(m *migration, qual, typ, name, opts string) (string, *analysis.TextEdit, bool) {
	if !m.item || m.retry == nil || m.anchor == nil {
		return "", nil, false
	}
	if r := (retries{migration: m, plan: m.retry}); !r.readsStatus() && len(m.retry.once) == 0 {
		return "", nil, false // decided from what the status does not hold: New's copy does
	}
	is, ok := m.retry.write.(*ast.IfStmt)
	if !ok || is.Else != nil || is.Init == nil || !containsNode(is.Init, m.call) {
		return "", nil, false
	}
	as, ok := is.Init.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 || ast.Unparen(as.Rhs[0]) != m.call {
		return "", nil, false
	}
	errID, ok := as.Lhs[0].(*ast.Ident)
	cond, ok2 := is.Cond.(*ast.BinaryExpr)
	if !ok || !ok2 || cond.Op != token.NEQ || types.ExprString(cond.X) != errID.Name || types.ExprString(cond.Y) != "nil" {
		return "", nil, false
	}
	if sc := m.blockScope(m.anchor); sc == nil || sc.Lookup(errID.Name) != nil {
		return "", nil, false // a := of the error there would clash
	}
	later := false // the body names a local declared after the item: not yet there
	ast.Inspect(is.Body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := m.pass.TypesInfo.Uses[id].(*types.Var); ok && v.Pos() > m.anchor.End() && v.Pos() < is.Pos() {
				later = true
			}
		}
		return !later
	})
	if later {
		return "", nil, false
	}
	cq, imp, why := m.text().qualifier("sigs.k8s.io/controller-runtime/pkg/client")
	if why != "" {
		return "", nil, false
	}
	body, ok := stmtSource(m.pass, is.Body)
	if !ok {
		return "", nil, false
	}
	if nl := strings.IndexByte(body, '\n'); nl > 0 {
		body = "{" + body[nl:] // the brace's line's comment is the write's
	}
	in := m.text().indent(m.anchor.Pos())
	obj := objText(m.obj)
	text := name + ", " + errID.Name + " := " + qual + "Fetch" + typ + "Into(" + types.ExprString(m.call.Args[0]) + ", " + m.clientText + ", " + cq + "ObjectKeyFromObject(" + obj + "), " + obj + opts + ")\n" +
		in + "if " + errID.Name + " != nil " + reindent(body, m.text().indent(is.Pos()), in)
	return text, imp, true
}

// reindent moves text's lines after the first from the indent from to to.
func reindent(text, from, to string) string {
	out := []byte{}
	for i := 0; i < len(text); i++ {
		out = append(out, text[i])
		if text[i] == '\n' && len(text[i+1:]) >= len(from) && text[i+1:i+1+len(from)] == from {
			out = append(out, to...)
			i += len(from)
		}
	}
	return string(out)
}

// stmtSource is s's text in its file.
func stmtSource(pass *analysis.Pass, s ast.Stmt) (string, bool) {
	tf := pass.Fset.File(s.Pos())
	src, err := pass.ReadFile(tf.Name())
	if err != nil {
		return "", false
	}
	return string(src[tf.Offset(s.Pos()):tf.Offset(s.End())]), true
}
