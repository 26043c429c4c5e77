package migrate

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
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
//
// A handling that neither leaves nor ends its loop's body (an error only
// logged, the loop going on after the write) has nowhere to go from a
// Fetch at the item: the code after it would run on with no patcher. The
// Fetch then goes at the write, in an if of its own before the write's:
// if objPatcher, err := Fetch...Into(...); err != nil {<the write's
// handling>} else if err := objPatcher.Retry(...); err != nil {<it
// again>}. A failed read runs what a failed write ran and skips the
// write, and the code after it runs as after a failed write (a failed
// Retry, too, leaves the item as it was before the attempt). The rule:
// the write's statement is that if, with no else and no labelled
// statement in its body, no decision's guard or once-calls before it,
// and nothing after it uses the patcher, which lives in the if alone: no
// other write of the item moves with it and no re-read becomes a Fetch
// into it.

// An itemFetched is a List item's patcher made from a fresh read.
type itemFetched struct {
	ctor    string             // the patcher made at the anchor; "" when atWrite
	atWrite *analysis.TextEdit // the Fetch's if, before the write's
	imp     *analysis.TextEdit // controller-runtime's client imported
}

// itemFetch is the text making the item's patcher with a fresh read and
// handling its error as the write's statement does, and the import of
// controller-runtime's client it needs; ok false where the write's error
// is handled in no form of fetchHandler's, or its handling names a local
// declared after the item (the patcher is then New's, over the listed
// copy).
func itemFetch(m *migration, qual, typ, name, opts string) (itemFetched, bool) {
	if !m.item || m.retry == nil || m.anchor == nil || m.fetch != nil {
		return itemFetched{}, false
	}
	if r := (retries{migration: m, plan: m.retry}); !r.readsStatus() && len(m.retry.once) == 0 {
		return itemFetched{}, false // decided from what the status does not hold: New's copy does
	}
	h, ok := fetchHandler(m)
	if !ok {
		return itemFetched{}, false
	}
	cq, imp, why := m.text().qualifier("sigs.k8s.io/controller-runtime/pkg/client")
	if why != "" {
		return itemFetched{}, false
	}
	obj := objText(m.obj)
	fetch := qual + "Fetch" + typ + "Into(" + types.ExprString(m.call.Args[0]) + ", " + m.clientText + ", " + cq + "ObjectKeyFromObject(" + obj + "), " + obj + opts + ")"
	if h.atWrite {
		in := m.text().indent(h.at.Pos())
		text := "if " + name + ", " + h.err + " := " + fetch + "; " + h.err + " != nil " + h.body(in) + " else "
		return itemFetched{atWrite: &analysis.TextEdit{Pos: h.at.Pos(), End: h.at.Pos(), NewText: []byte(text)}, imp: imp}, true
	}
	later := false // the handling names a local declared after the item: not yet there
	made := m.anchor.End()
	if head := itemHeadAt(m); head != nil {
		made = head.Pos() // made before the decision's head (migrateitemhead.go)
	}
	for _, n := range h.names {
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if v, ok := m.pass.TypesInfo.Uses[id].(*types.Var); ok && v.Pos() > made && v.Pos() < h.at.Pos() {
					later = true
				}
			}
			return !later
		})
	}
	if later {
		return itemFetched{}, false
	}
	in := m.text().indent(m.anchor.Pos())
	text := name + ", " + h.err + " := " + fetch + "\n"
	if !h.define {
		text = "var " + name + " *" + qual + typ + "\n" + in + name + ", " + h.err + " = " + fetch + "\n"
	}
	return itemFetched{ctor: text + in + "if " + h.err + " != nil " + h.body(in), imp: imp}, true
}

// An itemHandler is how the Fetch's error is handled, from the write's.
type itemHandler struct {
	err    string         // the error's name
	define bool           // the Fetch declares it (:=); else it is assigned, with the patcher declared before
	block  *ast.BlockStmt // the write's if's body, the Fetch's; nil: lines
	lines  []string       // the body's statements, without indent
	names  []ast.Node     // what the body names
	at     ast.Node       // the write's handling
	m      *migration
	from   string // block's indent
	cont   bool   // continue after block: the write's statement ends its loop's body
	// atWrite: the Fetch goes at the write, in an if of its own whose
	// body is block, the write's if its else (a block that neither
	// leaves nor ends its loop's body).
	atWrite bool
}

// fetchHandler finds the write's error handling, for each form of it:
// `if err := write; err != nil {...}`; `err = write` then `if err != nil
// {...}`; `errs = append(errs, write)` ending its loop's body; `return
// <zeros>, write`. A body that does not leave (errs = append(...)) gets
// a continue where the write's statement ends its loop's body, as
// nothing after it ran when the write failed; elsewhere ok is false.
func fetchHandler(m *migration) (itemHandler, bool) {
	h := itemHandler{m: m, at: m.retry.write}
	r := retries{migration: m, plan: m.retry}
	_, list, at := writeList(r)
	if at < 0 {
		return h, false
	}
	sameList := slices.Contains(list, m.anchor)
	endsLoop := sameList && at == len(list)-1 && loopBody(r, list)
	free := func(n string) bool { // not declared where the Fetch's := is, nor seen there
		sc := m.blockScope(m.anchor)
		if sc == nil || sc.Lookup(n) != nil {
			return false
		}
		_, o := sc.LookupParent(n, m.anchor.Pos())
		return o == nil
	}
	switch w := m.retry.write.(type) {
	case *ast.IfStmt:
		as, ok := w.Init.(*ast.AssignStmt)
		if !ok || w.Else != nil || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 || ast.Unparen(as.Rhs[0]) != ast.Expr(m.call) {
			return h, false
		}
		v := identOf(m.pass, as.Lhs[0])
		if v == nil || !isNotNil(m.pass, w.Cond, v) {
			return h, false
		}
		if sc := m.blockScope(m.anchor); sc == nil || sc.Lookup(v.Name()) != nil {
			return h, false // a := of the error there would clash
		}
		h.err, h.define, h.block = v.Name(), true, w.Body
	case *ast.AssignStmt:
		if len(w.Lhs) != 1 || len(w.Rhs) != 1 {
			return h, false
		}
		if ast.Unparen(w.Rhs[0]) == ast.Expr(m.call) && w.Tok == token.ASSIGN && at+1 < len(list) {
			// err = write, then if err != nil {...}
			v := identOf(m.pass, w.Lhs[0])
			is, ok := list[at+1].(*ast.IfStmt)
			if v == nil || v.Pos() > m.anchor.Pos() || !ok || is.Init != nil || is.Else != nil || !isNotNil(m.pass, is.Cond, v) {
				return h, false
			}
			sc := m.blockScope(m.anchor)
			h.err, h.block, h.at = v.Name(), is.Body, is
			h.define = sc != nil && sc.Lookup(v.Name()) == v
			endsLoop = sameList && at+1 == len(list)-1 && loopBody(r, list)
			break
		}
		call, ok := ast.Unparen(w.Rhs[0]).(*ast.CallExpr)
		if !ok || !isBuiltin(m.pass, call.Fun, "append") || len(call.Args) != 2 || ast.Unparen(call.Args[1]) != ast.Expr(m.call) ||
			types.ExprString(call.Args[0]) != types.ExprString(w.Lhs[0]) || !endsLoop || !free("err") {
			return h, false
		}
		// errs = append(errs, write), the last of its loop's body
		h.err, h.define, h.names = "err", true, []ast.Node{w.Lhs[0]}
		h.lines = []string{m.text().source(w.Lhs[0]) + " = append(" + m.text().source(call.Args[0]) + ", err)", "continue"}
		return h, true
	case *ast.ReturnStmt:
		e, ok := errPathOf(r, w)
		if !ok || !e.exact || !e.fixed() || !free("err") {
			return h, false
		}
		h.err, h.define = "err", true
		h.lines = []string{"return " + exprsText(m.text(), append(slices.Clip(e.zeros), ast.NewIdent("err")))}
		return h, true
	default:
		return h, false
	}
	h.names = []ast.Node{h.block}
	h.from = m.text().indent(h.at.Pos())
	if !sameList && branches(h.block) {
		return h, false // a break or continue of another construct than the anchor's
	}
	if !leaves(h.block) {
		if !endsLoop {
			h.atWrite = atWriteOK(m, h)
			return h, h.atWrite
		}
		h.cont = true
	}
	return h, true
}

// atWriteOK reports whether h, the handling of the write's
// if err := write; err != nil {...}, may be the Fetch's at the write (the
// rule above itemFetched).
func atWriteOK(m *migration, h itemHandler) bool {
	w, ok := h.at.(*ast.IfStmt)
	if !ok || w != m.retry.write || w.Else != nil || m.retry.guard != nil || len(m.retry.once) > 0 || len(m.rereads) > 0 {
		return false
	}
	for c := range m.moved {
		if c != m.call {
			return false // another write moves with it: it would share the patcher
		}
	}
	labelled := false
	ast.Inspect(h.block, func(n ast.Node) bool {
		_, l := n.(*ast.LabeledStmt)
		labelled = labelled || l
		return !labelled
	})
	return !labelled
}

// body is the handling's text at the indent in.
func (h itemHandler) body(in string) string {
	if h.block == nil {
		return "{\n" + in + "\t" + strings.Join(h.lines, "\n"+in+"\t") + "\n" + in + "}"
	}
	text, _ := h.m.text().moved(h.block, h.from, in)
	if nl := strings.IndexByte(text, '\n'); nl > 0 {
		text = "{" + text[nl:] // the brace's line's comment is the write's
	}
	if h.cont {
		text = strings.TrimSuffix(text, "}") + "\tcontinue\n" + in + "}"
	}
	return text
}

// loopBody reports whether list is the body of a for or range statement.
func loopBody(r retries, list []ast.Stmt) bool {
	for i, n := range r.path {
		b, ok := n.(*ast.BlockStmt)
		if !ok || i+1 >= len(r.path) || len(b.List) == 0 || len(b.List) != len(list) || b.List[0] != list[0] {
			continue
		}
		switch l := r.path[i+1].(type) {
		case *ast.ForStmt:
			return l.Body == b
		case *ast.RangeStmt:
			return l.Body == b
		}
		return false
	}
	return false
}

// leaves reports whether b's last statement leaves it: a return, a
// branch, a call of panic.
func leaves(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	switch s := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		call, ok := s.X.(*ast.CallExpr)
		id, isID := ast.Expr(nil), false
		if ok {
			id = call.Fun
			_, isID = id.(*ast.Ident)
		}
		return isID && id.(*ast.Ident).Name == "panic"
	}
	return false
}

// isBuiltin reports whether fun names the builtin function name.
func isBuiltin(pass *analysis.Pass, fun ast.Expr, name string) bool {
	id, ok := ast.Unparen(fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := pass.TypesInfo.Uses[id].(*types.Builtin)
	return ok && b.Name() == name
}

// branches reports whether b holds a break, continue or goto outside a
// function literal.
func branches(b *ast.BlockStmt) bool {
	found := false
	ast.Inspect(b, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BranchStmt:
			found = true
		}
		return !found
	})
	return found
}
