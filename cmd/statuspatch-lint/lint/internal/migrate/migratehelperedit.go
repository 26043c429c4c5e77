package migrate

import (
	"fmt"
	"go/ast"
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
	edits = append(edits, analysis.TextEdit{Pos: h.call.Pos(), End: h.call.End(), NewText: []byte(fmt.Sprintf("%s.Flush(%s)", name, types.ExprString(h.call.Args[0])))})
	how := "New" + p.Type + ", then Flush"
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
		if id, ok := n.(*ast.Ident); ok && h.pass.TypesInfo.Uses[id] == h.obj && (id.Pos() < h.call.Pos() || id.Pos() >= h.call.End()) {
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
	objIndex := slices.IndexFunc(h.params(), func(v *types.Var) bool { return v == h.obj })
	var drop []int
	for _, v := range gone {
		drop = append(drop, slices.Index(h.params(), v))
	}
	cedits, why := h.callerEdits(p, callers, objIndex, drop, imports)
	if why != "" {
		return nil, why
	}
	edits = append(edits, cedits...)
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
		made := map[ast.Stmt]bool{}
		for _, c := range hc.calls {
			if hc.shared != "" {
				edits = append(edits, sharedArgs(c, hc.shared, objIndex, drop))
				continue
			}
			cqual, cimport, why := c.text().qualifier(p.Pkg)
			if why != "" {
				return nil, why
			}
			copts, pimport := "", (*analysis.TextEdit)(nil)
			if unsentCalls(hc.calls) {
				c.unsent = true // the calls of a caller share its patcher
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
				edits = append(edits, analysis.TextEdit{Pos: arg.Pos(), End: arg.End(), NewText: []byte(cname)})
				continue
			}
			// An argument goes: the arguments are written anew.
			edits = append(edits, sharedArgs(c, cname, objIndex, drop))
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
