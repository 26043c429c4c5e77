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
	"strconv"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
)

// sourceTexts are the project's files init edits, each with its text as
// read and as edited so far, in the order first read.
type sourceTexts struct {
	dir   string
	order []string
	old   map[string]string
	cur   map[string]string
}

func newSourceTexts(dir string) *sourceTexts {
	return &sourceTexts{dir: dir, old: map[string]string{}, cur: map[string]string{}}
}

// text is rel's text as edited so far.
func (s *sourceTexts) text(rel string) (string, error) {
	if t, ok := s.cur[rel]; ok {
		return t, nil
	}
	t, err := readText(s.dir, rel)
	if err != nil {
		return "", err
	}
	s.order = append(s.order, rel)
	s.old[rel], s.cur[rel] = t, t
	return t, nil
}

func (s *sourceTexts) set(rel, text string) { s.cur[rel] = text }

// edits are the files whose text changed.
func (s *sourceTexts) edits() []fileEdit {
	var edits []fileEdit
	for _, rel := range s.order {
		if s.old[rel] != s.cur[rel] {
			edits = append(edits, fileEdit{path: rel, old: s.old[rel], new: s.cur[rel]})
		}
	}
	return edits
}

// callerEdits wires the reconciler g where it is built, when its
// SetupWithManager sets the client only under a condition (if r.Client ==
// nil { ... }): the composite literals of <Kind>Reconciler in the
// module's non-test Go files (kubebuilder's cmd/main.go builds
// &controller.<Kind>Reconciler{Client: mgr.GetClient(), ...}), whose
// client then decides. A Client of x.GetClient() becomes
// patcher.ForManager(x, ...); none leaves the condition to set it; any
// other value, or no literal found, is said with file:line and what to
// write.
func callerEdits(texts *sourceTexts, repo, ctrlDir string, g guardedSet) ([]string, error) {
	ctrlPath := strings.TrimSuffix(repo, "/") + "/" + ctrlDir
	typeName := g.kind + "Reconciler"
	var notes []string
	found := 0
	err := filepath.WalkDir(texts.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != texts.dir && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "vendor" || name == "testdata" || name == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		relOS, err := filepath.Rel(texts.dir, p)
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(relOS)
		src, err := texts.text(rel)
		if err != nil {
			return err
		}
		out, n, fileNotes, err := wireLiterals(rel, src, path.Dir(rel) == ctrlDir, ctrlPath, typeName, g)
		if err != nil {
			return err
		}
		found += n
		notes = append(notes, fileNotes...)
		texts.set(rel, out)
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("statuspatch-gen init: %w", err)
	}
	if found == 0 {
		notes = append(notes, fmt.Sprintf("statuspatch-gen init: %s: %s's SetupWithManager sets its client to patcher.ForManager only under a condition, and no non-test Go file of the module builds a %s{...}: one built with a Client keeps that client; write %s in SetupWithManager after the condition if it is the manager's",
			g.at, typeName, typeName, g.path.lhs("r")+" = patcher.ForManager(mgr, patcher.WithFieldOwner("+g.owner+"))"))
	}
	return notes, nil
}

// wireLiterals rewrites the Client of x.GetClient() in src's composite
// literals of typeName (a type of the package at ctrlPath, or of src's
// own package when local) to patcher.ForManager(x, ...), importing the
// patcher package; it returns the new text, how many literals it found and
// notes on those it could not wire.
func wireLiterals(rel, src string, local bool, ctrlPath, typeName string, g guardedSet) (string, int, []string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, rel, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return "", 0, nil, fmt.Errorf("statuspatch-gen init: %w", err)
	}
	pkgName := ""
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == ctrlPath {
			pkgName = path.Base(p)
			if imp.Name != nil {
				pkgName = imp.Name.Name
			}
		}
	}
	if !local && pkgName == "" {
		return src, 0, nil, nil
	}
	isType := func(e ast.Expr) bool {
		switch t := e.(type) {
		case *ast.Ident:
			return local && t.Name == typeName
		case *ast.SelectorExpr:
			x, ok := t.X.(*ast.Ident)
			return ok && !local && x.Name == pkgName && t.Sel.Name == typeName
		}
		return false
	}
	var ed textEdits
	var notes []string
	found := 0
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.CompositeLit)
		if !ok || !isType(lit.Type) {
			return true
		}
		found++
		at := fmt.Sprintf("%s:%d", rel, fset.Position(lit.Pos()).Line)
		val, _, opaque := litClient(lit, g.path.via)
		if val == nil {
			return true // no client: SetupWithManager's condition sets it
		}
		c, isCall := val.(*ast.CallExpr)
		var sel *ast.SelectorExpr
		if isCall && len(c.Args) == 0 {
			sel, _ = c.Fun.(*ast.SelectorExpr)
		}
		mgr, isIdent := ast.Expr(nil), false
		if sel != nil && sel.Sel.Name == "GetClient" {
			_, isIdent = sel.X.(*ast.Ident)
			mgr = sel.X
		}
		what := "a Client of " + types.ExprString(val)
		if opaque {
			what = "a value init cannot see the Client of (" + types.ExprString(val) + ")"
		}
		if isIdent && !opaque && patcherName(f) == "patcher" {
			ed.replace(fset, val, fmt.Sprintf("patcher.ForManager(%s, patcher.WithFieldOwner(%s))", types.ExprString(mgr), g.owner))
			notes = append(notes, fmt.Sprintf("statuspatch-gen init: %s: %s is built with patcher.ForManager (was %s), as its SetupWithManager sets it only under a condition (%s)", at, typeName, types.ExprString(val), g.at))
			return true
		}
		notes = append(notes, fmt.Sprintf("statuspatch-gen init: %s: %s is built with %s, and its SetupWithManager sets it to patcher.ForManager only under a condition (%s): if that is the manager's client, set its %s to patcher.ForManager(mgr, patcher.WithFieldOwner(%s)) here by hand",
			at, typeName, what, g.at, strings.Join(append(append([]string{}, g.path.via...), "Client"), "."), g.owner))
		return true
	})
	if len(ed) == 0 {
		return src, found, notes, nil
	}
	fset = token.NewFileSet()
	f, err = parser.ParseFile(fset, rel, ed.apply(src), parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return "", 0, nil, fmt.Errorf("statuspatch-gen init: %s with ForManager: %w", rel, err)
	}
	astutil.AddImport(fset, f, patcherPkg)
	var b bytes.Buffer
	if err := format.Node(&b, fset, f); err != nil {
		return "", 0, nil, fmt.Errorf("statuspatch-gen init: %s with ForManager: %w", rel, err)
	}
	return b.String(), found, notes, nil
}
