package lint

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// helperEdits builds the fix of a write-only helper (migratehelper.go):
// the helper takes the patcher, its write becomes Flush, and each caller
// makes the patcher after its anchor and passes it.
func (m *migration) helperEdits(p patcherInfo, fd *ast.FuncDecl, callers []*helperCaller) (*analysis.SuggestedFix, string) {
	qual, importEdit, why := m.qualifier(p.Pkg)
	if why != "" {
		return nil, why
	}
	name := m.freePatcherName()
	var edits []analysis.TextEdit
	edits = append(edits, analysis.TextEdit{Pos: m.call.Pos(), End: m.call.End(), NewText: []byte(fmt.Sprintf("%s.Flush(%s)", name, types.ExprString(m.call.Args[0])))})
	params := fd.Type.Params
	var all []string
	for _, field := range params.List {
		var parts []string
		for _, n := range field.Names {
			switch m.pass.TypesInfo.Defs[n] {
			case m.obj:
				parts = append(parts, name+" *"+qual+p.Type)
			case m.baseParam:
			default:
				parts = append(parts, n.Name+" "+m.source(field.Type))
			}
		}
		all = append(all, parts...)
		if m.baseParam == nil && slices.ContainsFunc(field.Names, func(n *ast.Ident) bool { return m.pass.TypesInfo.Defs[n] == m.obj }) {
			edits = append(edits, analysis.TextEdit{Pos: field.Pos(), End: field.End(), NewText: []byte(strings.Join(parts, ", "))})
		}
	}
	if m.baseParam != nil {
		// The base parameter goes: the parameter list is written anew.
		edits = append(edits, analysis.TextEdit{Pos: params.Opening + 1, End: params.Closing, NewText: []byte(strings.Join(all, ", "))})
	}
	// The object, for the rest of the body, when it uses it beside the write.
	used := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && m.pass.TypesInfo.Uses[id] == m.obj && (id.Pos() < m.call.Pos() || id.Pos() >= m.call.End()) {
			used = true
		}
		return !used
	})
	if used {
		at := fd.Body.Lbrace + 1
		edits = append(edits, analysis.TextEdit{Pos: at, End: at, NewText: []byte("\n" + m.indent(fd.Body.List[0].Pos()) + m.obj.Name() + " := " + name + ".Object()")})
	}
	imports := map[*ast.File]bool{}
	if importEdit != nil {
		edits = append(edits, *importEdit)
		imports[m.file] = true
	}
	objIndex := slices.IndexFunc(m.params(), func(v *types.Var) bool { return v == m.obj })
	baseIndex := -1
	if m.baseParam != nil {
		baseIndex = slices.Index(m.params(), m.baseParam)
	}
	for _, hc := range callers {
		made := map[ast.Stmt]bool{}
		for _, c := range hc.calls {
			cqual, cimport, why := c.qualifier(p.Pkg)
			if why != "" {
				return nil, why
			}
			if cimport != nil && !imports[c.file] {
				imports[c.file] = true
				edits = append(edits, *cimport)
			}
			cname := c.patcherName(hc.calls)
			if !made[c.anchor] {
				made[c.anchor] = true
				ctor := fmt.Sprintf("%s := %sNew%s(%s, %s)", cname, cqual, p.Type, c.clientText, c.obj.Name())
				if c.keep || c.baseVar == nil {
					edits = append(edits, analysis.TextEdit{Pos: c.anchor.End(), End: c.anchor.End(), NewText: []byte("\n" + c.indent(c.anchor.Pos()) + ctor)})
				} else {
					edits = append(edits, analysis.TextEdit{Pos: c.anchor.Pos(), End: c.anchor.End(), NewText: []byte(ctor)})
				}
			}
			if m.baseParam == nil {
				arg := c.call.Args[objIndex]
				edits = append(edits, analysis.TextEdit{Pos: arg.Pos(), End: arg.End(), NewText: []byte(cname)})
				continue
			}
			// The base argument goes: the arguments are written anew.
			var args []string
			for i, a := range c.call.Args {
				switch {
				case i == objIndex:
					args = append(args, cname)
				case i != baseIndex:
					args = append(args, c.source(a))
				}
			}
			last := c.call.Args[len(c.call.Args)-1]
			edits = append(edits, analysis.TextEdit{Pos: c.call.Args[0].Pos(), End: last.End(), NewText: []byte(strings.Join(args, ", "))})
		}
	}
	return &analysis.SuggestedFix{Message: migrateFixPrefix + p.Type + " (" + fd.Name.Name + " takes the patcher its callers make with New" + p.Type + ", then Flush)", TextEdits: edits}, ""
}

// source returns n's text in its file (types.ExprString of an expression
// when the file cannot be read).
func (m *migration) source(n ast.Expr) string {
	tf := m.pass.Fset.File(n.Pos())
	if tf != nil {
		if src, err := m.pass.ReadFile(tf.Name()); err == nil && tf.Offset(n.End()) <= len(src) {
			return string(src[tf.Offset(n.Pos()):tf.Offset(n.End())])
		}
	}
	return types.ExprString(n)
}
