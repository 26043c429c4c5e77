package scaffold

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
)

// patcherPkg is the runtime package the reconcilers' setup imports.
const patcherPkg = runtimeModule + "/patcher"

// clientPkg is controller-runtime's client package.
const clientPkg = "sigs.k8s.io/controller-runtime/pkg/client"

// managerEdits wires patcher.ForManager into the SetupWithManager of each
// kind's reconciler (internal/controller/<kind>_controller.go in
// kubebuilder v4, or the file declaring <Kind>Reconciler), as
// README.md's "Using it" does: the manager's client carrying the patchers'
// defaults (the manager's API reader for fresh reads and re-bases, its
// watcher) and the controller's name as the field owner. Every kind's
// reconciler is wired, several in one file too; one whose SetupWithManager
// leaves the client to the reconciler's builders (sets it under a
// condition, or not at all) is wired as they decide (callerEdits): where a
// builder keeps a client of its own, that client stays, and is said. A
// reconciler that mentions ForManager already is left as it is; one init
// cannot wire, or cannot be sure of, is named in a note with file:line.
func managerEdits(dir string, p *kbProject) ([]fileEdit, []string, error) {
	texts := newSourceTexts(dir)
	var notes []string
	done := map[string]bool{}
	for _, r := range p.Resources {
		if (!r.Controller && len(r.Controllers) == 0) || r.Kind == "" {
			continue
		}
		ctrlDir := p.controllerDir(r)
		if ctrlDir == "" {
			continue
		}
		_, structs, err := packageStructs(filepath.Join(dir, filepath.FromSlash(ctrlDir)))
		if err != nil {
			return nil, nil, err
		}
		for _, name := range reconcilerNames(r) {
			// kubebuilder's <name>_controller.go, or the file that declares
			// <Name>Reconciler; one file may declare several kinds' reconcilers
			rel := path.Join(ctrlDir, strings.ToLower(name.file)+"_controller.go")
			if st, ok := structs[name.typ+"Reconciler"]; ok {
				rel = path.Join(ctrlDir, st.file)
			}
			if done[rel+" "+name.typ] {
				continue
			}
			done[rel+" "+name.typ] = true
			src, err := texts.text(rel)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return nil, nil, err
			}
			w, err := wireSetup(rel, src, name.typ, structs)
			if err != nil {
				return nil, nil, err
			}
			if w.why != "" {
				notes = append(notes, fmt.Sprintf("statuspatch-gen init: %s: patcher.ForManager not wired into %sReconciler's SetupWithManager: %s (README.md's \"Using it\" shows the line)", w.at, name.typ, w.why))
			}
			if w.guarded != nil {
				callerNotes, err := callerEdits(texts, p.Repo, ctrlDir, rel, w)
				if err != nil {
					return nil, nil, err
				}
				notes = append(notes, callerNotes...)
				continue
			}
			for _, n := range w.notes {
				notes = append(notes, "statuspatch-gen init: "+n)
			}
			texts.set(rel, w.out)
		}
	}
	return texts.edits(), notes, nil
}

// reconcilerName is a reconciler kubebuilder scaffolds for a kind: its
// type's name without "Reconciler", and its file's without
// "_controller.go".
type reconcilerName struct{ typ, file string }

// reconcilerNames are r's reconcilers: <Kind>Reconciler, and one for each
// named controller (kubebuilder v4.13+'s create api --controller-name
// captain-backup: CaptainBackupReconciler in captain_backup_controller.go).
func reconcilerNames(r kbResource) []reconcilerName {
	out := []reconcilerName{{typ: r.Kind, file: r.Kind}}
	for _, c := range r.Controllers {
		var typ strings.Builder
		for _, part := range strings.FieldsFunc(c.Name, func(c rune) bool { return c == '-' || c == '_' || c == '.' }) {
			typ.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
		// kubebuilder's own test: the name is the kind's, lowered
		if n := typ.String(); n != "" && c.Name != strings.ToLower(r.Kind) {
			out = append(out, reconcilerName{typ: n, file: strings.NewReplacer("-", "_", ".", "_").Replace(c.Name)})
		}
	}
	return out
}

// wireForManager returns src with
//
//	r.Client = patcher.ForManager(mgr, patcher.WithFieldOwner("<controller name>"))
//
// in (*<kind>Reconciler).SetupWithManager and the patcher package
// imported, or src and why not ("" when there is nothing to do: no such
// method, or ForManager mentioned in it already). The reconciler's Client
// is its own field, or one promoted from a struct of the package it
// embeds (pkgStructs: the package's other files; a Base holding the
// client), written r.Base.Client when r.Client is ambiguous. Where the
// method sets the client to mgr.GetClient() (r.Client = ..., r.Base.Client
// = ..., r.Base = Base{Client: ...}), that value becomes ForManager; else
// the line goes first in the method, or after the last set that leaves the
// client nil; a last set to anything else is left, and said. The
// controller name is the argument of Named in the method (kubebuilder's
// scaffold), else the kind in lower case, controller-runtime's default.
func wireForManager(rel, src, kind string) (string, string, error) {
	return wireForManagerIn(rel, src, kind, nil)
}

// wireForManagerIn is wireForManager where the package's other files
// declare pkgStructs.
func wireForManagerIn(rel, src, kind string, pkgStructs map[string]declaredStruct) (string, string, error) {
	w, err := wireSetup(rel, src, kind, pkgStructs)
	return w.out, w.why, err
}

// setupWiring is what wireSetup made of one SetupWithManager: the file's
// new text, or why it is not wired; notes on what init wired but cannot be
// sure of (file:line, and what to write by hand); guarded, when the value
// the reconciler is built with decides (callerEdits): the client is set
// only on some paths of the method (under a condition), or the wired line
// goes first in it, replacing that value.
type setupWiring struct {
	out, why string
	at       string // SetupWithManager's file:line
	notes    []string
	guarded  *guardedSet
}

// guardedSet is a reconciler whose SetupWithManager sets its client to
// ForManager only under a condition (at: file:line), or, first, sets it
// at its top where it set none (at: the method's file:line), with the
// field's path and the ForManager call's field owner.
type guardedSet struct {
	kind, at, owner string
	path            clientPath
	first           bool
}

// wireSetup is wireForManagerIn, with its notes and the guarded set.
func wireSetup(rel, src, kind string, pkgStructs map[string]declaredStruct) (setupWiring, error) {
	none := setupWiring{out: src}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, rel, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return none, fmt.Errorf("statuspatch-gen init: %w", err)
	}
	setup := setupWithManager(f, kind+"Reconciler")
	if setup == nil || strings.Contains(src[fset.Position(setup.Body.Lbrace).Offset:fset.Position(setup.Body.Rbrace).Offset], "ForManager") {
		return none, nil
	}
	structs := map[string]declaredStruct{}
	addFileStructs(structs, f, filepath.Base(rel))
	for n, st := range pkgStructs {
		if _, ok := structs[n]; !ok && st.file != filepath.Base(rel) {
			structs[n] = st
		}
	}
	none.at = fmt.Sprintf("%s:%d", rel, fset.Position(setup.Pos()).Line)
	why := func(s string) (setupWiring, error) { none.why = s; return none, nil }
	cp, ok := clientField(structs, kind+"Reconciler")
	if !ok && cp.why != "" {
		return why(cp.why)
	}
	if !ok {
		return why(kind + "Reconciler has no Client field of type client.Client, nor embeds by value a struct of its package that has one")
	}
	if n := patcherName(f); n != "patcher" {
		return why("the file imports another package named patcher, or statuspatch's patcher under another name")
	}
	recv, params := setup.Recv.List[0].Names, setup.Type.Params.List
	if len(recv) != 1 || len(params) != 1 || len(params[0].Names) != 1 || recv[0].Name == "_" || params[0].Names[0].Name == "_" {
		return why("SetupWithManager's receiver or manager parameter has no name")
	}
	owner := strconv.Quote(strings.ToLower(kind))
	ast.Inspect(setup.Body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || len(c.Args) != 1 {
			return true
		}
		if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Named" {
			if lit, ok := c.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				owner = lit.Value
			}
		}
		return true
	})
	r, mgr := recv[0].Name, params[0].Names[0].Name
	line := func(n ast.Node) string { return fmt.Sprintf("%s:%d", rel, fset.Position(n.Pos()).Line) }
	forManager := fmt.Sprintf("patcher.ForManager(%s, patcher.WithFieldOwner(%s))", mgr, owner)
	stmt := cp.lhs(r) + " = " + forManager
	var w setupWiring
	if cp.explicit {
		w.notes = append(w.notes, fmt.Sprintf("%s: %sReconciler's field Client is ambiguous (%s and %s, at the same depth): init wired %s; if %s is the manager's client too, set it to %s there by hand",
			line(setup), kind, strings.Join(append(append([]string{}, cp.via...), "Client"), "."), strings.Join(cp.others, ", "), cp.lhs(r), strings.Join(cp.others, ", "), forManager))
	}
	sets := withMethodSets(f, kind+"Reconciler", setup.Body, r, cp.via, clientSets(setup.Body, r, cp.via))
	var ed textEdits
	rewritten := map[int]bool{}
	for i, s := range sets {
		if s.val != nil && !s.opaque && isGetClient(s.val, mgr) {
			ed.replace(fset, s.val, forManager)
			if len(rewritten) == 0 {
				ed.insert(fset.Position(s.stmt.Pos()).Offset, managerComment)
			}
			rewritten[i] = true
		}
	}
	last := len(sets) - 1
	prior := -1 // the last set at the top of the body before the last set
	for i := last - 1; i >= 0; i-- {
		if sets[i].top {
			prior = i
			break
		}
	}
	said := func(s clientSet) string {
		if s.val == nil {
			return "nil (a literal without it)"
		}
		return types.ExprString(s.val)
	}
	switch {
	case last < 0:
		ed.insert(fset.Position(setup.Body.Lbrace).Offset+1, "\n\t"+managerComment+stmt)
		w.guarded = &guardedSet{kind: kind, at: line(setup), owner: owner, path: cp, first: true}
	case sets[last].top && rewritten[last]:
	case sets[last].top && sets[last].val == nil:
		// a literal without the client: it is nil after, and set after that
		ed.insert(fset.Position(sets[last].stmt.End()).Offset, "\n\t"+managerComment+stmt)
	case sets[last].top:
		return why(fmt.Sprintf("SetupWithManager sets %s to %s already (%s)", cp.lhs(r), said(sets[last]), line(sets[last].at)))
	case !rewritten[last]:
		return why(fmt.Sprintf("SetupWithManager sets %s to %s under a condition (%s): write %s on every path by hand", cp.lhs(r), said(sets[last]), line(sets[last].at), stmt))
	case prior >= 0 && rewritten[prior]:
	case prior >= 0:
		w.notes = append(w.notes, fmt.Sprintf("%s: %s is %s unless the statement at %s sets it: init wired that set only; write %s after it by hand if that client is the manager's",
			line(sets[prior].at), cp.lhs(r), said(sets[prior]), line(sets[last].stmt), stmt))
	default:
		w.guarded = &guardedSet{kind: kind, at: line(sets[last].at), owner: owner, path: cp}
	}
	wired := ed.apply(src)
	fset = token.NewFileSet()
	f, err = parser.ParseFile(fset, rel, wired, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return none, fmt.Errorf("statuspatch-gen init: %s with ForManager: %w", rel, err)
	}
	astutil.AddImport(fset, f, patcherPkg)
	var b bytes.Buffer
	if err := format.Node(&b, fset, f); err != nil {
		return none, fmt.Errorf("statuspatch-gen init: %s with ForManager: %w", rel, err)
	}
	w.out = b.String()
	return w, nil
}

// managerComment goes before the statement that wires ForManager.
const managerComment = "// The manager's client carrying the status patchers' defaults: its API\n" +
	"\t// reader for fresh reads, and this controller's name as the field owner\n" +
	"\t// (statuspatch-gen init; README.md's \"Using it\").\n\t"

// patcherName is the name f imports the runtime's patcher package under:
// "patcher" when it does not import it or another package of that name;
// "" when it imports another package named patcher, or the runtime's under
// another name.
func patcherName(f *ast.File) string {
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		named := (imp.Name != nil && imp.Name.Name == "patcher") || (imp.Name == nil && path.Base(p) == "patcher")
		switch {
		case p == patcherPkg && !named, p != patcherPkg && named:
			return ""
		}
	}
	return "patcher"
}

// textEdit replaces src[from:to] with text (an insertion when from == to).
type textEdit struct {
	from, to int
	text     string
}

// textEdits are insertions and replacements in a source text, by offset.
type textEdits []textEdit

func (e *textEdits) insert(at int, text string) {
	*e = append(*e, textEdit{at, at, text})
}

func (e *textEdits) replace(fset *token.FileSet, n ast.Node, text string) {
	*e = append(*e, textEdit{fset.Position(n.Pos()).Offset, fset.Position(n.End()).Offset, text})
}

// apply makes the edits on src, the later ones first (insertions at one
// offset in the order made).
func (e textEdits) apply(src string) string {
	sorted := slices.Clone(e)
	slices.SortStableFunc(sorted, func(a, b textEdit) int {
		return b.from - a.from
	})
	for i := 0; i < len(sorted); {
		j := i
		for j < len(sorted) && sorted[j].from == sorted[i].from {
			j++
		}
		var text strings.Builder
		to := sorted[i].from
		for _, x := range sorted[i:j] {
			text.WriteString(x.text)
			to = max(to, x.to)
		}
		src = src[:sorted[i].from] + text.String() + src[to:]
		i = j
	}
	return src
}

// viaChain says whether x is recv, or recv followed by a tail of via's
// names (r.Base, r.Base.Inner where via is [Base Inner]): the promoted
// field's explicit paths.
func viaChain(x ast.Expr, recv string, via []string) bool {
	var names []string
	for {
		switch e := x.(type) {
		case *ast.Ident:
			if e.Name != recv || len(names) > len(via) {
				return false
			}
			for i, n := range names { // names are innermost first
				if via[len(names)-1-i] != n {
					return false
				}
			}
			return true
		case *ast.SelectorExpr:
			names = append(names, e.Sel.Name)
			x = e.X
		default:
			return false
		}
	}
}

// isGetClient reports whether e is mgr.GetClient().
func isGetClient(e ast.Expr, mgr string) bool {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(c.Args) != 0 {
		return false
	}
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "GetClient" {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Name == mgr
}

// setupWithManager is the method SetupWithManager of *typeName (or
// typeName) in f, nil if there is none.
func setupWithManager(f *ast.File, typeName string) *ast.FuncDecl {
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != "SetupWithManager" || fd.Recv == nil || len(fd.Recv.List) != 1 || fd.Body == nil {
			continue
		}
		t := fd.Recv.List[0].Type
		if star, ok := t.(*ast.StarExpr); ok {
			t = star.X
		}
		if id, ok := t.(*ast.Ident); ok && id.Name == typeName {
			return fd
		}
	}
	return nil
}
