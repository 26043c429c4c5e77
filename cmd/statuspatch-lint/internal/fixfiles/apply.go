package fixfiles

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/ast/astutil"
)

// fileEdit is one edit of a suggested fix, by byte offsets.
type fileEdit struct {
	start, end int
	text       string
}

// ApplyFixes applies the first suggested fix of each diagnostic of the
// graph's roots, as the checker's -fix does: a fix that edits a generated
// file is skipped; a fix identical to one applied (the same edits) is
// applied once; the others are merged as the checker merges them
// (mergeEdits); a fix that conflicts with those already accepted is not
// applied, and the run fails saying how many were (run it again). Each fixed file is then formatted, its imports
// sorted and the imports no longer used removed (the checker's
// FormatSourceRemoveImports, by selectors: a package is used only as
// name.X).
func ApplyFixes(graph *checker.Graph) error {
	accepted := map[string][]fileEdit{} // by file name
	filePkg := map[string]*types.Package{}
	var fset *token.FileSet
	seenFix := map[string]bool{}
	total, applied := 0, 0
	// A fix may edit files of other packages (an exported helper's
	// callers, lint.ResolveGroups): each file is formatted by its own
	// package's imports.
	for _, act := range graph.Roots {
		if act.Err == nil {
			for _, f := range act.Package.Syntax {
				if tf := act.Package.Fset.File(f.FileStart); tf != nil {
					filePkg[tf.Name()] = act.Package.Types
				}
			}
		}
	}
	for _, act := range graph.Roots {
		if act.Err != nil {
			continue
		}
		fset = act.Package.Fset
		generated := map[*token.File]bool{}
		for _, f := range act.Package.Syntax {
			generated[fset.File(f.FileStart)] = ast.IsGenerated(f)
		}
	diags:
		for _, d := range act.Diagnostics {
			if len(d.SuggestedFixes) == 0 {
				continue
			}
			byFile := map[string][]fileEdit{}
			var key strings.Builder
			for _, e := range d.SuggestedFixes[0].TextEdits {
				tf := fset.File(e.Pos)
				if tf == nil || generated[tf] {
					continue diags
				}
				end := e.End
				if !end.IsValid() {
					end = e.Pos
				}
				fe := fileEdit{tf.Offset(e.Pos), tf.Offset(end), string(e.NewText)}
				byFile[tf.Name()] = append(byFile[tf.Name()], fe)
				if filePkg[tf.Name()] == nil {
					filePkg[tf.Name()] = act.Package.Types
				}
				fmt.Fprintf(&key, "%s:%d:%d:%q;", tf.Name(), fe.start, fe.end, fe.text)
			}
			if seenFix[key.String()] {
				continue
			}
			seenFix[key.String()] = true
			total++
			merged, ok := mergeEdits(accepted, byFile)
			if !ok {
				continue
			}
			applied++
			for name, edits := range merged {
				accepted[name] = edits
			}
		}
	}
	names := make([]string, 0, len(accepted))
	for name := range accepted {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if err := writeFixed(fset, name, accepted[name], filePkg[name]); err != nil {
			return err
		}
	}
	if applied < total {
		return fmt.Errorf("applied %d of %d fixes; %d files updated. (Re-run the command to apply more.)", applied, total, len(names))
	}
	return nil
}

// mergeEdits returns accepted's edits of the files fix edits with fix's
// merged in, or false if they conflict. It merges as the checker's -fix
// does (golang.org/x/tools/internal/diff.Merge, as if by diff3): an
// identical edit is made once, edits that touch only at a point are both
// made (an insertion where another edit starts comes first if it was
// accepted first), and two different edits of the same text conflict.
func mergeEdits(accepted, fix map[string][]fileEdit) (map[string][]fileEdit, bool) {
	out := map[string][]fileEdit{}
	for name, edits := range fix {
		y := slices.Clone(edits)
		slices.SortStableFunc(y, func(a, b fileEdit) int {
			if a.start != b.start {
				return a.start - b.start
			}
			return a.end - b.end
		})
		x := slices.Clone(accepted[name])
		var merged []fileEdit
		xi, yi := 0, 0
		for xi < len(x) && yi < len(y) {
			px, py := &x[xi], &y[yi]
			switch {
			case *px == *py:
				merged = append(merged, *px)
				xi++
				yi++
			case px.end <= py.start:
				merged = append(merged, *px)
				xi++
			case py.end <= px.start:
				merged = append(merged, *py)
				yi++
			case px.start < py.start:
				merged = append(merged, fileEdit{px.start, py.start, ""})
				px.start = py.start
			case py.start < px.start:
				merged = append(merged, fileEdit{py.start, px.start, ""})
				py.start = px.start
			default:
				return nil, false
			}
		}
		merged = append(merged, x[xi:]...)
		merged = append(merged, y[yi:]...)
		out[name] = merged
	}
	return out, true
}

// writeFixed applies edits to the file name, formats it, removes the
// imports it no longer uses, and writes it back.
func writeFixed(fset *token.FileSet, name string, edits []fileEdit, pkg *types.Package) error {
	src, err := os.ReadFile(name)
	if err != nil {
		return fmt.Errorf("applying fixes: %w", err)
	}
	var tf *token.File
	fset.Iterate(func(f *token.File) bool {
		if f.Name() == name {
			tf = f
		}
		return tf == nil
	})
	if tf != nil && tf.Size() != len(src) {
		return fmt.Errorf("applying fixes: %s changed while it was analyzed (%d -> %d bytes)", name, tf.Size(), len(src))
	}
	var out bytes.Buffer
	last := 0
	for _, e := range edits {
		out.Write(src[last:e.start])
		out.WriteString(e.text)
		last = e.end
	}
	out.Write(src[last:])
	fixed := out.Bytes()
	if formatted, err := formatRemovingImports(fixed, pkg); err == nil {
		fixed = formatted
	}
	if err := os.WriteFile(name, fixed, 0o644); err != nil {
		return fmt.Errorf("applying fixes: %w", err)
	}
	return nil
}

// formatRemovingImports formats src with its imports sorted, without the
// imports it does not use (by name, as its package pkg imports them).
func formatRemovingImports(src []byte, pkg *types.Package) ([]byte, error) {
	names := map[string]string{}
	if pkg != nil {
		for _, imp := range pkg.Imports() {
			names[imp.Path()] = imp.Name()
		}
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "fixed.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("formatting the fixed file: %w", err)
	}
	ast.SortImports(fset, f)
	type spec struct{ name, path string }
	var unused []spec
	for _, imp := range f.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		explicit := ""
		if imp.Name != nil {
			explicit = imp.Name.Name
		}
		name := explicit
		if name == "" {
			name = names[path]
		}
		if name == "" || name == "_" || name == "." || usesName(f, name) {
			continue
		}
		unused = append(unused, spec{explicit, path})
	}
	for _, u := range unused {
		astutil.DeleteNamedImport(fset, f, u.name, u.path)
	}
	var out bytes.Buffer
	if err := format.Node(&out, fset, f); err != nil {
		return nil, fmt.Errorf("formatting the fixed file: %w", err)
	}
	return out.Bytes(), nil
}
