package fixfiles

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"strconv"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/ast/astutil"
)

// DropUnusedClientImport removes the controller-runtime client import
// from a file that -fix edited, if the file no longer uses it: moving a
// write onto a generated patcher removes its client.MergeFrom, which may
// have been the file's only use (each fix is made alone, so none of them
// can know). A package is used only through selectors (client.X), so the
// check is syntactic; dot and blank imports are left alone.
func DropUnusedClientImport(file string) error {
	src, err := os.ReadFile(file)
	if err != nil {
		return fmt.Errorf("drop unused import: %w", err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.ParseComments)
	if err != nil {
		return fmt.Errorf("drop unused import: %w", err)
	}
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p != kube.ClientPkgPath {
			continue
		}
		name := "client"
		if imp.Name != nil {
			name = imp.Name.Name
		}
		if name == "_" || name == "." || usesName(f, name) {
			return nil
		}
		if imp.Name != nil {
			astutil.DeleteNamedImport(fset, f, name, kube.ClientPkgPath)
		} else {
			astutil.DeleteImport(fset, f, kube.ClientPkgPath)
		}
		var out bytes.Buffer
		if err := format.Node(&out, fset, f); err != nil {
			return fmt.Errorf("drop unused import from %s: %w", file, err)
		}
		if err := os.WriteFile(file, out.Bytes(), 0o644); err != nil {
			return fmt.Errorf("drop unused import: %w", err)
		}
		return nil
	}
	return nil
}

// usesName reports whether the file has a selector name.X.
func usesName(f *ast.File, name string) bool {
	used := false
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == name {
				used = true
			}
		}
		return !used
	})
	return used
}
