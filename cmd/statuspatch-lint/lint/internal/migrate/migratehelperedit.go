package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// helperEdits builds the fix of a write-only helper (migratehelper.go):
// the helper takes the patcher, its write becomes Flush, and each caller
// makes the patcher after its anchor and passes it.
func (h *helperMove) helperEdits(p Patcher, fd *ast.FuncDecl, callers []*helperCaller) (*analysis.SuggestedFix, string) {
	qual, importEdit, why := h.text().qualifier(p.Pkg)
	if why != "" {
		return nil, why
	}
	name := h.freePatcherName()
	var edits []analysis.TextEdit
	writes := append([]*ast.CallExpr{h.call}, h.also...)
	how := "New" + p.Type + ", then Flush"
	plan := helperRetry(h, fd, callers) // its decision in Retry (migratehelperretry.go)
	var syncImport *analysis.TextEdit
	if plan != nil {
		e, imp, ok := helperRetryEdits(h, plan, name)
		if ok {
			edits, syncImport, writes, how = append(edits, e...), imp, nil, "New"+p.Type+", its decision in Retry"
		} else {
			plan = nil
		}
	}
	for _, w := range writes {
		// Each write of the object in the helper, a Flush of the one patcher.
		edits = append(edits, analysis.TextEdit{Pos: w.Pos(), End: w.End(), NewText: []byte(fmt.Sprintf("%s.Flush(%s)", name, types.ExprString(w.Args[0])))})
	}
	if len(h.also) > 0 {
		how += fmt.Sprintf(" at each of its %d writes", len(writes))
	}
	if h.apply != nil {
		// The configuration's status to ApplyStatus, before the write's statement.
		stmt := h.enclosingStmt()
		if stmt == nil {
			return nil, h.shapeWhy("the apply is not in a statement of a block")
		}
		give := fmt.Sprintf("_ = %s.Patcher().ApplyStatus(%s) // Flush returns its error too\n%s", name, h.apply.statusText(), h.text().indent(stmt.Pos()))
		edits = append(edits, analysis.TextEdit{Pos: stmt.Pos(), End: stmt.Pos(), NewText: []byte(give)})
		how = "New" + p.Type + " in apply mode, then ApplyStatus and Flush"
	}
	params := fd.Type.Params
	gone := h.droppedParams()
	var all []string
	for _, field := range params.List {
		var parts []string
		for _, n := range field.Names {
			v, _ := h.pass.TypesInfo.Defs[n].(*types.Var)
			switch {
			case v == h.obj:
				parts = append(parts, name+" *"+qual+p.Type)
			case slices.Contains(gone, v):
			default:
				parts = append(parts, n.Name+" "+h.text().source(field.Type))
			}
		}
		all = append(all, parts...)
		if len(gone) == 0 && slices.ContainsFunc(field.Names, func(n *ast.Ident) bool { return h.pass.TypesInfo.Defs[n] == h.obj }) {
			edits = append(edits, analysis.TextEdit{Pos: field.Pos(), End: field.End(), NewText: []byte(strings.Join(parts, ", "))})
		}
	}
	if len(gone) > 0 {
		// A parameter goes: the parameter list is written anew.
		edits = append(edits, analysis.TextEdit{Pos: params.Opening + 1, End: params.Closing, NewText: []byte(strings.Join(all, ", "))})
		if h.dropClient != nil {
			how += "; its parameter " + h.dropClient.Name() + ", then unused, goes"
		}
	}
	// The object, for the rest of the body, when it uses it beside the write.
	used := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && h.pass.TypesInfo.Uses[id] == h.obj && usedBesideRetry(plan, id) && !slices.ContainsFunc(append([]*ast.CallExpr{h.call}, h.also...), func(w *ast.CallExpr) bool { return w.Pos() <= id.Pos() && id.Pos() < w.End() }) {
			used = true
		}
		return !used
	})
	if used {
		at := fd.Body.Lbrace + 1
		// After a comment on the brace's line, which stays there.
		brace := h.pass.Fset.Position(fd.Body.Lbrace).Line
		for _, cg := range h.file.Comments {
			if cg.Pos() > fd.Body.Lbrace && cg.End() <= fd.Body.List[0].Pos() && h.pass.Fset.Position(cg.Pos()).Line == brace {
				at = cg.End()
			}
		}
		edits = append(edits, analysis.TextEdit{Pos: at, End: at, NewText: []byte("\n" + h.text().indent(fd.Body.List[0].Pos()) + h.obj.Name() + " := " + name + ".Object()")})
	}
	imports := map[*ast.File]bool{}
	if importEdit != nil {
		edits = append(edits, *importEdit)
		imports[h.file] = true
	}
	edits = mergeImport(edits, syncImport)
	objIndex := slices.IndexFunc(h.params(), func(v *types.Var) bool { return v == h.obj })
	var drop []int
	for _, v := range gone {
		drop = append(drop, slices.Index(h.params(), v))
	}
	cedits, why := h.callerEdits(p, callers, objIndex, drop, imports)
	if why != "" {
		return nil, why
	}
	edits = uniqueEdits(append(edits, cedits...))
	if plan != nil {
		how += managerClientNote(h, callers) // migrateclientset.go
	}
	return &analysis.SuggestedFix{Message: migrateFixPrefix + p.Type + " (" + fd.Name.Name + " takes the patcher its callers make with " + how + ")", TextEdits: edits}, ""
}

// callerEdits are the edits of a helper's callers: each makes the patcher
// after its anchor and passes it for the object (argument objIndex), the
// arguments of the parameters that go (drop: a base, an unused client)
// gone. imports are the files that import the patchers' package already
// or by an edit made.
func (h *helperMove) callerEdits(p Patcher, callers []*helperCaller, objIndex int, drop []int, imports map[*ast.File]bool) ([]analysis.TextEdit, string) {
	var edits []analysis.TextEdit
	pimports := map[*ast.File]bool{}
	for _, hc := range callers {
		if hc.link != nil {
			ledits, why := linkEdits(h, p, hc, objIndex, imports)
			if why != "" {
				return nil, why
			}
			edits = append(edits, ledits...)
			continue
		}
		made := map[ast.Stmt]bool{}
		for _, c := range hc.calls {
			if hc.shared != "" {
				edits = append(edits, sharedArgs(c, hc.shared+h.argSuffix, objIndex, drop))
				continue
			}
			cqual, cimport, why := c.text().qualifier(p.Pkg)
			if why != "" {
				return nil, why
			}
			copts, pimport := "", (*analysis.TextEdit)(nil)
			if unsentCalls(hc.calls) {
				c.unsent = true // the calls of a caller share its patcher
			}
			if h.apply == nil {
				c.owner = h.owner // the helper's field owner (checkOwner, callerOwner)
				if copts, pimport, why = c.patcherOptions(c.text()); why != "" {
					return nil, why
				}
			}
			if h.apply != nil {
				pqual := ""
				if pqual, pimport, why = c.text().qualifier(kube.PatcherPkgPath); why != "" {
					return nil, why
				}
				copts = ", " + pqual + "WithWriteMode(" + pqual + "WriteApply), " + pqual + "WithFieldOwner(" + h.apply.owner.text() + ")"
			}
			if imports[c.file] {
				cimport = nil
			}
			if pimports[c.file] {
				pimport = nil
			}
			imports[c.file] = imports[c.file] || cimport != nil
			pimports[c.file] = pimports[c.file] || pimport != nil
			edits = append(edits, importEdits(p.Pkg, cimport, kube.PatcherPkgPath, pimport)...)
			cname := c.patcherName(hc.calls)
			if !made[c.anchor] {
				made[c.anchor] = true
				obj := c.obj.Name()
				if valueObj(c.obj) {
					obj = "&" + obj // a local value read by Get(ctx, key, &obj)
				}
				ctor := fmt.Sprintf("%s := %sNew%s(%s, %s%s)", cname, cqual, p.Type, c.clientText, obj, copts)
				if c.keep || c.baseVar == nil {
					edits = append(edits, analysis.TextEdit{Pos: c.anchor.End(), End: c.anchor.End(), NewText: []byte("\n" + c.text().indent(c.anchor.Pos()) + ctor)})
				} else {
					edits = append(edits, analysis.TextEdit{Pos: c.anchor.Pos(), End: c.anchor.End(), NewText: []byte(ctor)})
				}
			}
			if len(drop) == 0 {
				arg := c.call.Args[objIndex]
				edits = append(edits, analysis.TextEdit{Pos: arg.Pos(), End: arg.End(), NewText: []byte(cname + h.argSuffix)})
				continue
			}
			// An argument goes: the arguments are written anew.
			edits = append(edits, sharedArgs(c, cname+h.argSuffix, objIndex, drop))
		}
	}
	return edits, ""
}

// sharedArgs is the edit of a call passing the caller's own patcher
// name in place of the object (and without the dropped arguments).
func sharedArgs(c *migration, name string, objIndex int, drop []int) analysis.TextEdit {
	var args []string
	for i, a := range c.call.Args {
		switch {
		case i == objIndex:
			args = append(args, name)
		case !slices.Contains(drop, i):
			args = append(args, c.text().source(a))
		}
	}
	last := c.call.Args[len(c.call.Args)-1]
	return analysis.TextEdit{Pos: c.call.Args[0].Pos(), End: last.End(), NewText: []byte(strings.Join(args, ", "))}
}

// callOf returns the call whose function is cur (an
// identifier, or the Sel of a selector) and the selector's X, if any.
func callOf(cur inspector.Cursor) (*ast.CallExpr, ast.Expr) {
	var recv ast.Expr
	if sel, ok := cur.Parent().Node().(*ast.SelectorExpr); ok && sel.Sel == cur.Node() {
		recv = sel.X
		cur = cur.Parent()
	}
	if isExplicitInstance(cur) { // name[T](...)
		cur = cur.Parent()
	}
	call, ok := cur.Parent().Node().(*ast.CallExpr)
	if !ok || ast.Unparen(call.Fun) != cur.Node() {
		return nil, nil
	}
	return call, recv
}

// isPlainSelector reports whether e is an identifier or a chain of field
// selections of one: naming it again evaluates to the same value.
func isPlainSelector(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return true
	case *ast.SelectorExpr:
		return isPlainSelector(e.X)
	}
	return false
}

// clientAssigned is where the local variable the client expression e
// starts from (c of c or c.x) is last assigned, or its address taken,
// between from and to in pl's function: the patcher made at from would
// hold another client than the call at to names. NoPos when it is not.
func clientAssigned(pl *place, e ast.Expr, from, to token.Pos) token.Pos {
	for sel, ok := ast.Unparen(e).(*ast.SelectorExpr); ok; sel, ok = ast.Unparen(e).(*ast.SelectorExpr) {
		e = sel.X
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	v, _ := pl.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v == nil || v.IsField() || v.Parent() == pl.pass.Pkg.Scope() {
		return token.NoPos
	}
	at := token.NoPos
	for cur := range pl.usesOf(pl.enclosingFunc(), v, from, to) {
		switch p := cur.Parent().Node().(type) {
		case *ast.AssignStmt:
			if isLHS(p, cur.Node()) {
				at = cur.Node().Pos()
			}
		case *ast.UnaryExpr:
			if p.Op == token.AND {
				at = cur.Node().Pos()
			}
		}
	}
	return at
}

// callerClient is the client expression a helper's call names for the
// patcher its caller makes, and the rest of the client after it: the
// argument (a client parameter), or the receiver and the rest (".c"). A receiver built in the call (&harbour{c: r.Client},
// harbour{r.Client}) or in a local of the caller (h := &harbour{...})
// gives the literal's client field: the patcher is made with r.Client. It
// returns why the call names none.
func (h *helperMove) callerClient(c *migration, e ast.Expr, recvRoot bool, rest string, line int) (ast.Expr, string, string) {
	if e != nil && recvRoot && rest != "" {
		if lit := c.builtReceiver(e); lit != nil {
			field, more, _ := strings.Cut(rest[1:], ".")
			val := literalField(h.pass, lit, field)
			if val == nil {
				return nil, "", fmt.Sprintf("its call at line %d builds its receiver without its client field %s", line, field)
			}
			if !isPlainSelector(val) {
				return nil, "", fmt.Sprintf("its call at line %d builds its receiver with %s: %s, not a client variable or field", line, field, c.text().source(val))
			}
			e, rest = val, ""
			if more != "" {
				rest = "." + more
			}
		}
	}
	if e == nil || !isPlainSelector(e) {
		return nil, "", fmt.Sprintf("its call at line %d does not name the client as a variable or field", line)
	}
	return e, rest, ""
}

// sameClient says why a caller that writes the object itself cannot pass
// the patcher of its own writes to the helper: a call's client (a
// sub-reconciler's own, r.berth.c) is not the client its own write goes
// through, and one patcher writes through one. r and r.Client, the
// client r embeds, are one client.
func (h *helperMove) sameClient(hc *helperCaller, files Files, ws []*Write) string {
	c := hc.calls[0]
	fn := c.enclosingFunc()
	for _, o := range ws {
		call, ok := files.Calls[o.Lparen]
		if !ok || call.Pos() < fn.Pos() || call.End() > fn.End() || len(call.Args) < 2 || !c.isObj(call.Args[1]) {
			continue
		}
		own, ok := statusReceiver(call)
		if !ok {
			continue
		}
		for i, k := range hc.calls {
			if h.clientKey(hc.clients[i])+hc.rests[i] == h.clientKey(own) {
				continue
			}
			return fmt.Sprintf("its call at line %d writes through %s%s, not through %s, as its own write of %s at line %d does; one patcher would make both writes through one client",
				h.pass.Fset.Position(k.call.Pos()).Line, k.clientText, h.setAt(hc.clients[i]), types.ExprString(own), c.obj.Name(), h.pass.Fset.Position(call.Pos()).Line)
		}
		return ""
	}
	return ""
}

// clientKey is the text of a client expression past the embedded fields
// it selects: r.Client, r embedding client.Client, is r.
func (c *calls) clientKey(e ast.Expr) string {
	e = ast.Unparen(e)
	if sel, ok := e.(*ast.SelectorExpr); ok {
		if s := c.pass.TypesInfo.Selections[sel]; s != nil && s.Kind() == types.FieldVal {
			if v, ok := s.Obj().(*types.Var); ok && v.Embedded() {
				return c.clientKey(sel.X)
			}
		}
	}
	return types.ExprString(e)
}

// setAt names where the package sets the outermost field e selects that
// it assigns (r.berth of r.berth.c, set in SetupWithManager): " (r.berth
// is set in SetupWithManager at line 115)", or "".
func (c *calls) setAt(e ast.Expr) string {
	for {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			return ""
		}
		if s := c.pass.TypesInfo.Selections[sel]; s != nil && s.Kind() == types.FieldVal {
			for cur := range c.insp.Root().Preorder((*ast.AssignStmt)(nil)) {
				as := cur.Node().(*ast.AssignStmt)
				for _, l := range as.Lhs {
					ls, ok := ast.Unparen(l).(*ast.SelectorExpr)
					if !ok || c.pass.TypesInfo.Selections[ls] == nil || c.pass.TypesInfo.Selections[ls].Obj() != s.Obj() {
						continue
					}
					in := "a function literal"
					for fd := range cur.Enclosing((*ast.FuncDecl)(nil)) {
						in = fd.Node().(*ast.FuncDecl).Name.Name
					}
					return fmt.Sprintf(" (%s is set in %s at line %d)", types.ExprString(sel), in, c.pass.Fset.Position(as.Pos()).Line)
				}
			}
		}
		e = sel.X
	}
}
