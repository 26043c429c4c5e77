package migrate

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/analysis"
)

// fix rewrites the patch helper's body (migratepatchhelper.go): its base
// field becomes the StatusPatcher patchers.For makes in the constructor,
// beside For's error, which Patch returns first (a constructor returning
// an error too returns For's there instead); the write becomes the
// patcher's Flush. The client field, when the write was its only use, is
// dropped. For is given patcher.WithNonStatusChangesUnsent(), as the
// status write left unsent what changed outside the status. No caller
// changes: Patch's error is still the one the
// caller's defer joins into its named error return, a conflict among it.
func (h *patchHelper) fix(_ Patcher, _ Files, _ []*Write, _ Options) (*analysis.SuggestedFix, string) {
	field := h.fieldDecl(h.base)
	if field == nil || len(field.Names) != 1 {
		return nil, fmt.Sprintf("the base %s is not declared alone in %s's struct", h.base.Name(), h.named.Obj().Name())
	}
	pName := h.memberName("patcher")
	eName := h.memberName(pName + "Err")
	ctorFile := fileOf(h.pass, h.ctor.Pos())
	structFile := fileOf(h.pass, field.Pos())
	if ctorFile == nil || structFile == nil {
		return nil, "the helper's files are not among the package's"
	}
	quals := map[*ast.File]string{}
	var edits []analysis.TextEdit
	for _, f := range []*ast.File{structFile, ctorFile} {
		if _, done := quals[f]; done {
			continue
		}
		q, imp, why := h.in(f).text().qualifier(h.pkg)
		if why != "" {
			return nil, why
		}
		quals[f] = q
		var pimp *analysis.TextEdit
		if f == ctorFile {
			// For's option, in the constructor.
			var pq string
			if pq, pimp, why = h.in(f).text().qualifier(kube.PatcherPkgPath); why != "" {
				return nil, why
			}
			quals[nil] = pq
		}
		edits = append(edits, importEdits(h.pkg, imp, kube.PatcherPkgPath, pimp)...)
	}
	// A constructor returning an error too returns For's; else the
	// helper keeps it for Patch to return.
	ctorErr := h.ctorReturnsErr()
	fieldText := fmt.Sprintf("%s %sStatusPatcher", pName, quals[structFile])
	if !ctorErr {
		fieldText += fmt.Sprintf("\n%s%s error", h.in(structFile).text().indent(field.Pos()), eName)
	}
	edits = append(edits, analysis.TextEdit{Pos: field.Pos(), End: field.End(), NewText: []byte(fieldText)})
	if cf := h.fieldDecl(h.client); h.dropC && cf != nil && len(cf.Names) == 1 {
		edits = append(edits, h.deleteLine(cf))
	} else {
		h.dropC = false
	}

	// The constructor: For before the literal, its results in the literal.
	cin := h.in(ctorFile).text()
	pv, ev := h.localName("p"), h.localName("err")
	objName := paramVars(h.pass, h.ctor)[h.ctorObj].Name()
	lin := cin.indent(h.litStmt.Pos())
	made := fmt.Sprintf("%s, %s := %sFor(%s, %s, %sWithNonStatusChangesUnsent())\n%s", pv, ev, quals[ctorFile], cin.source(h.clientKV.Value), objName, quals[nil], lin)
	set := fmt.Sprintf("%s: %s,%s%s: %s", pName, pv, h.eltSep(cin), eName, ev)
	if ctorErr {
		made += fmt.Sprintf("if %s != nil {\n%s\treturn nil, %s\n%s}\n%s", ev, lin, ev, lin, lin)
		set = fmt.Sprintf("%s: %s", pName, pv)
	}
	edits = append(edits,
		analysis.TextEdit{Pos: h.litStmt.Pos(), NewText: []byte(made)},
		analysis.TextEdit{Pos: h.baseKV.Pos(), End: h.baseKV.End(), NewText: []byte(set)})
	if h.dropC {
		edits = append(edits, h.deleteElt(h.clientKV))
	}

	// Patch: For's error first, then Flush in place of the write.
	r := h.recv.Name()
	if !ctorErr {
		first := h.method.Body.List[0].Pos()
		bin := h.text().indent(first)
		edits = append(edits, analysis.TextEdit{Pos: first, NewText: fmt.Appendf(nil, "if %s.%s != nil {\n%s\treturn %s.%s\n%s}\n%s", r, eName, bin, r, eName, bin, bin)})
	}
	edits = append(edits, analysis.TextEdit{Pos: h.call.Pos(), End: h.call.End(), NewText: fmt.Appendf(nil, "%s.%s.Flush(%s)", r, pName, h.text().source(h.call.Args[0]))})
	pkgName := h.pkg[strings.LastIndex(h.pkg, "/")+1:]
	return &analysis.SuggestedFix{
		Message:   fmt.Sprintf("move the status write onto the generated patchers (%s holds the StatusPatcher of %s.For, made with WithNonStatusChangesUnsent, in place of its base field %s, and %s Flushes it)", h.named.Obj().Name(), pkgName, h.base.Name(), h.method.Name.Name),
		TextEdits: edits,
	}, ""
}

// ctorReturnsErr reports whether the constructor returns the helper's
// pointer and an error, the literal in a return statement: For's error
// is returned there, with nil.
func (h *patchHelper) ctorReturnsErr() bool {
	res := h.ctor.Type.Results
	ret, ok := h.litStmt.(*ast.ReturnStmt)
	if res == nil || res.NumFields() != 2 || !ok || len(ret.Results) != 2 {
		return false
	}
	sig, ok := h.pass.TypesInfo.TypeOf(h.ctor.Name).(*types.Signature)
	if !ok || sig.Results().Len() != 2 || !types.Identical(sig.Results().At(1).Type(), types.Universe.Lookup("error").Type()) {
		return false
	}
	_, ptr := sig.Results().At(0).Type().(*types.Pointer)
	return ptr
}

// eltSep separates two elements of the literal as its base's line does:
// a new line at its indent when the base has a line of its own.
func (h *patchHelper) eltSep(t text) string {
	fset := h.pass.Fset
	if fset.Position(h.baseKV.Pos()).Line != fset.Position(h.lit.Lbrace).Line {
		return "\n" + t.indent(h.baseKV.Pos())
	}
	return " "
}

// fieldDecl is the declaration of the helper type's field v.
func (h *patchHelper) fieldDecl(v *types.Var) *ast.Field {
	for cur := range h.insp.Root().Preorder((*ast.Field)(nil)) {
		f := cur.Node().(*ast.Field)
		for _, n := range f.Names {
			if h.pass.TypesInfo.Defs[n] == v {
				return f
			}
		}
	}
	return nil
}

// fileOf is the package's file holding pos.
func fileOf(pass *analysis.Pass, pos token.Pos) *ast.File {
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos < f.FileEnd {
			return f
		}
	}
	return nil
}

// in is the write's site seen from file f, for its imports and names.
func (h *patchHelper) in(f *ast.File) *site {
	if f == h.file {
		return h.site
	}
	return &site{place: place{calls: h.calls, file: f, path: []ast.Node{f}, call: h.call}}
}

// memberName is name, or name with a number, that no field or method
// of the helper's type has.
func (h *patchHelper) memberName(name string) string {
	out := name
	for i := 2; ; i++ {
		if obj, _, _ := types.LookupFieldOrMethod(h.named, true, h.pass.Pkg, out); obj == nil {
			return out
		}
		out = fmt.Sprintf("%s%d", name, i)
	}
}

// localName is name, or name with a number, that the constructor and the
// package scope do not use.
func (h *patchHelper) localName(name string) string {
	out := name
	for i := 2; ; i++ {
		taken := h.pass.Pkg.Scope().Lookup(out) != nil
		ast.Inspect(h.ctor, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Name == out {
				taken = true
			}
			return !taken
		})
		if !taken {
			return out
		}
		out = fmt.Sprintf("%s%d", name, i)
	}
}

// deleteLine drops n, its whole line when it is alone there.
func (h *patchHelper) deleteLine(n ast.Node) analysis.TextEdit {
	from, to := n.Pos(), n.End()
	tf := h.pass.Fset.File(from)
	if src, err := h.pass.ReadFile(tf.Name()); err == nil {
		start, end := tf.Offset(tf.LineStart(tf.Line(from))), tf.Offset(to)
		if len(bytes.TrimLeft(src[start:tf.Offset(from)], "\t ")) == 0 && end < len(src) && src[end] == '\n' {
			from, to = tf.LineStart(tf.Line(from)), to+1
		}
	}
	return analysis.TextEdit{Pos: from, End: to}
}

// deleteElt drops the literal's element kv with its comma: up to the
// next element, or from the one before when it is the last.
func (h *patchHelper) deleteElt(kv *ast.KeyValueExpr) analysis.TextEdit {
	elts := h.lit.Elts
	for i, e := range elts {
		if e != ast.Expr(kv) {
			continue
		}
		if i+1 < len(elts) {
			return analysis.TextEdit{Pos: kv.Pos(), End: elts[i+1].Pos()}
		}
		if i > 0 {
			return analysis.TextEdit{Pos: elts[i-1].End(), End: kv.End()}
		}
	}
	return analysis.TextEdit{Pos: kv.Pos(), End: kv.End()}
}
