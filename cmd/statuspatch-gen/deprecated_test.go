package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const patcherImport = "github.com/statuspatch/statuspatch/patcher"

// TestGoldensUseNoDeprecatedPatcherAPI fails when generated code names an
// identifier of the patcher package that is deprecated there (a
// "Deprecated:" paragraph in its doc, as go doc and staticcheck read it):
// the generator must emit the current API (WithWriteMode, not the WithApply
// wrapper), or a user's linter flags code they cannot edit.
func TestGoldensUseNoDeprecatedPatcherAPI(t *testing.T) {
	deprecated := deprecatedNames(t, filepath.Join(repoRoot(t), "patcher"))
	if !deprecated["WithApply"] {
		t.Fatalf("patcher's deprecated identifiers %v: expected WithApply among them (is the repository root %s?)", keys(deprecated), repoRoot(t))
	}
	files := generatedFiles(t, testdata)
	if len(files) == 0 {
		t.Fatal("no goldens found")
	}
	for rel, src := range files {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, rel, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		name := importName(f, patcherImport)
		if name == "" {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == name && deprecated[sel.Sel.Name] {
				t.Errorf("%s: generated code uses the deprecated %s.%s", fset.Position(sel.Pos()), name, sel.Sel.Name)
			}
			return true
		})
	}
}

// deprecatedNames lists the exported identifiers declared in the package
// in dir (test files left out) whose doc has a "Deprecated:" paragraph.
func deprecatedNames(t *testing.T, dir string) map[string]bool {
	t.Helper()
	fset := token.NewFileSet()
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	isDeprecated := func(docs ...*ast.CommentGroup) bool {
		for _, d := range docs {
			if d == nil {
				continue
			}
			for _, para := range strings.Split(d.Text(), "\n\n") {
				if strings.HasPrefix(para, "Deprecated: ") {
					return true
				}
			}
		}
		return false
	}
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && isDeprecated(d.Doc) {
					out[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.ValueSpec:
						for _, n := range s.Names {
							// A lone spec's doc is the declaration's.
							if isDeprecated(s.Doc) || len(d.Specs) == 1 && isDeprecated(d.Doc) {
								out[n.Name] = true
							}
						}
					case *ast.TypeSpec:
						if isDeprecated(s.Doc) || len(d.Specs) == 1 && isDeprecated(d.Doc) {
							out[s.Name.Name] = true
						}
					}
				}
			}
		}
	}
	return out
}

// importName is the name f refers to the package path by, "" if f does not
// import it.
func importName(f *ast.File, path string) string {
	for _, im := range f.Imports {
		if strings.Trim(im.Path.Value, `"`) != path {
			continue
		}
		if im.Name != nil {
			return im.Name.Name
		}
		return path[strings.LastIndex(path, "/")+1:]
	}
	return ""
}

func keys(m map[string]bool) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
