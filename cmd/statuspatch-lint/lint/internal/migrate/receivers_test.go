package migrate_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// The codemod's receivers stay small enough to read (issue 80, style
// review step 2): no type of the package declares more than 25 methods.
// migration had 31 and site 26 before their split (place.go holds where
// a write sits, writeOptions its options, keptGets its kept re-reads);
// a group that grows one is moved onto a type of its own, by what it
// holds. Counted as the explorer's TestExploreReceivers counts: the
// methods declared on each receiver type, pointer or not, in the
// package's non-test files.
func TestMigrateReceivers(t *testing.T) {
	const limit = 25
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	counts, files := map[string]int{}, map[string]map[string]bool{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) == 0 {
				continue
			}
			typ := fd.Recv.List[0].Type
			if s, ok := typ.(*ast.StarExpr); ok {
				typ = s.X
			}
			if id, ok := typ.(*ast.Ident); ok {
				counts[id.Name]++
				if files[id.Name] == nil {
					files[id.Name] = map[string]bool{}
				}
				files[id.Name][name] = true
			}
		}
	}
	if counts["migration"] == 0 || counts["site"] == 0 {
		t.Fatalf("read no method of migration or site: is the test in the migrate package's folder? %v", counts)
	}
	for typ, n := range counts {
		if n > limit {
			t.Errorf("%s declares %d methods over %d files, at most %d: move a group onto a type of its own, by what it holds", typ, n, len(files[typ]), limit)
		}
	}
}
