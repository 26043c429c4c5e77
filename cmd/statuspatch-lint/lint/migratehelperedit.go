package lint

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strconv"
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
	name := m.obj.Name() + "Patcher"
	for i := 2; m.nameTaken(name); i++ {
		name = m.obj.Name() + "Patcher" + strconv.Itoa(i)
	}
	var edits []analysis.TextEdit
	edits = append(edits, analysis.TextEdit{Pos: m.call.Pos(), End: m.call.End(), NewText: []byte(fmt.Sprintf("%s.Flush(%s)", name, types.ExprString(m.call.Args[0])))})
	for _, field := range fd.Type.Params.List {
		if !slices.ContainsFunc(field.Names, func(n *ast.Ident) bool { return m.pass.TypesInfo.Defs[n] == m.obj }) {
			continue
		}
		var parts []string
		for _, n := range field.Names {
			if m.pass.TypesInfo.Defs[n] == m.obj {
				parts = append(parts, name+" *"+qual+p.Type)
			} else {
				parts = append(parts, n.Name+" "+types.ExprString(field.Type))
			}
		}
		edits = append(edits, analysis.TextEdit{Pos: field.Pos(), End: field.End(), NewText: []byte(strings.Join(parts, ", "))})
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
				edits = append(edits, analysis.TextEdit{Pos: c.anchor.End(), End: c.anchor.End(), NewText: []byte("\n" + c.indent(c.anchor.Pos()) + ctor)})
			}
			arg := c.call.Args[objIndex]
			edits = append(edits, analysis.TextEdit{Pos: arg.Pos(), End: arg.End(), NewText: []byte(cname)})
		}
	}
	return &analysis.SuggestedFix{Message: migrateFixPrefix + p.Type + " (" + fd.Name.Name + " takes the patcher its callers make with New" + p.Type + ", then Flush)", TextEdits: edits}, ""
}
