package ondisk

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// eachGoFile parses, in directory order, the .go files of dir (import
// path pkgPath) whose names keep accepts, and returns the first
// non-empty answer of visit (rel is pkgPath/name); a file that cannot be
// parsed answers "rel cannot be parsed", and a folder that cannot be
// read answers "".
func eachGoFile(dir, pkgPath string, keep func(name string) bool, visit func(fset *token.FileSet, f *ast.File, rel string) string) string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	fset := token.NewFileSet()
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || !keep(e.Name()) {
			continue
		}
		rel := path.Join(pkgPath, e.Name())
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			return rel + " cannot be parsed"
		}
		if why := visit(fset, f, rel); why != "" {
			return why
		}
	}
	return ""
}
