package migrate

import (
	"fmt"
	"go/ast"
	"go/types"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/analysis"
)

// The fix's edits, once the checks (migratemutations.go and the shapes'
// files) let the write move: the patcher made at its anchor (or fetched
// at a re-read), the write turned into its Flush or a Retry holding the
// decision, the statements the patcher replaces deleted, and the
// imports the new text needs.

// importedPkg is kube.ImportedPkg: the package of path among pkg's
// imports, directly or not.
func importedPkg(pkg *types.Package, p string) *types.Package {
	return kube.ImportedPkg(pkg, p)
}

// edits builds the fix: the patcher made at the anchor, the write turned
// into its Flush, and the patcher's package imported if needed.
func (m *migration) edits(p Patcher, name string) (*analysis.SuggestedFix, string) {
	qual, importEdit, why := m.text().qualifier(p.Pkg)
	if why != "" {
		return nil, why
	}
	owner, ownerImport, why := m.patcherOptions(m.text())
	if why != "" {
		return nil, why
	}
	ctor := fmt.Sprintf("%s := %sNew%s(%s, %s%s)", name, qual, p.Type, m.clientText, objText(m.obj), owner)
	var edits []analysis.TextEdit // the first is where the command says the fix is
	// A List item decided from its status is read fresh (migrateitemfetch.go).
	f, fetched := itemFetch(m, qual, p.Type, name, owner)
	if fetched && f.ctor != "" {
		ctor = f.ctor
	}
	switch {
	case m.fetch != nil:
		edits = append(edits, m.fetch.edits(m, qual, p.Type, name, owner)...)
	case f.atWrite != nil:
		// The anchor only goes when it was the base, with the decision's
		// lines when they hold it (migrateitemhead.go).
		edits = append(edits, *f.atWrite)
		if !m.keep && itemHeadAt(m) == nil {
			edits = append(edits, m.text().deleteStmt(m.anchor))
		}
	case m.keep:
		edits = append(edits, analysis.TextEdit{Pos: m.anchor.End(), End: m.anchor.End(), NewText: []byte("\n" + m.text().indent(m.anchor.Pos()) + ctor)})
	case itemHeadAt(m) != nil:
		// The item's base moved into Retry with its head (migrateitemhead.go):
		// the patcher is made before the head, whose lines go.
		head := itemHeadAt(m)
		tf := m.pass.Fset.File(head.Pos())
		at := tf.LineStart(tf.Line(head.Pos()))
		edits = append(edits, analysis.TextEdit{Pos: at, End: at, NewText: []byte(m.text().indent(head.Pos()) + ctor + "\n")})
	default:
		edits = append(edits, analysis.TextEdit{Pos: m.anchor.Pos(), End: m.anchor.End(), NewText: []byte(ctor)})
	}
	flush := fmt.Sprintf("%s.Flush(%s)", name, types.ExprString(m.call.Args[0]))
	how := " (New" + p.Type + ", then Flush)"
	var onceImport *analysis.TextEdit // sync, for a decision's calls made once (migrateretryonce.go)
	if m.retry != nil {
		re, call, syncImport, ok, why := retryEdits(retries{migration: m}, name)
		switch {
		case why != "":
			return nil, why
		case !ok && m.item:
			return nil, m.itemWhy
		case ok:
			flush, how = call, " (New"+p.Type+", the decision in Retry"
			if fetched {
				how = " (Fetch" + p.Type + "Into over the item, the decision in Retry"
			}
			how += plainManagerClient(&m.place, m.client, "", m.obj.Name()) + ")" // migrateclientset.go
			onceImport = syncImport
			edits = append(edits, re...)
		}
	}
	if flush != "" {
		edits = append(edits, analysis.TextEdit{Pos: m.call.Pos(), End: m.call.End(), NewText: []byte(flush)})
	}
	for _, f := range m.rereads {
		edits = append(edits, f.edits(m, qual, p.Type, name, owner)...)
	}
	if m.late != nil && !m.lateKeep && !m.retry.holds(m.late) { // its line goes with the decision's (lateHead)
		edits = append(edits, m.text().deleteStmt(m.late))
	}
	for _, s := range m.drop {
		edits = append(edits, m.text().deleteStmt(s))
	}
	edits = mergeImport(append(edits, importEdits(p.Pkg, importEdit, kube.PatcherPkgPath, ownerImport)...), onceImport)
	edits = mergeImport(edits, f.imp)
	if m.fetch != nil && m.retry == nil {
		fetch := "Fetch" + p.Type
		if m.fetch.into {
			fetch += "Into" // read into the object itself
		}
		how = " (" + fetch + " at the re-read, then Flush)"
	}
	return &analysis.SuggestedFix{Message: migrateFixPrefix + p.Type + how + m.lateNote() + flushNote(m), TextEdits: edits}, ""
}

// isStatusWrite reports whether call is c.Status().Update, Patch or Apply.
func isStatusWrite(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	_, ok = statusReceiver(call)
	return ok && (sel.Sel.Name == "Update" || sel.Sel.Name == "Patch" || sel.Sel.Name == "Apply")
}
