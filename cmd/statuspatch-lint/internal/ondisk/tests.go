package ondisk

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

// InPackageTests parses into fset the _test.go files of dir whose
// package is name (not name_test, which cannot reach unexported names),
// for lint.ResolveTestCalls: -fix rewrites their calls of a helper it
// moves. A file that cannot be parsed is an error naming it.
func InPackageTests(fset *token.FileSet, dir, name string) ([]*ast.File, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", dir, err)
	}
	var files []*ast.File
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		file := filepath.Join(dir, e.Name())
		clause, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.PackageClauseOnly)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		if clause.Name.Name != name {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		files = append(files, f)
	}
	return files, nil
}
