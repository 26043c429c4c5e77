package ondisk

import (
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
	"strings"
)

// UnseenMethods says where the module of dir declares a method named
// name in a .go file not in seen (absolute paths): a file of a package
// not analyzed, or of other build tags; "" when nowhere. -fix moves a
// write past an interface call only when no implementation is unseen
// (docs/lint.md). Files that cannot be read or parsed count as
// declarations. A _test.go file does not: what it declares is compiled
// only into its package's test binary, never into a program of the
// module, so its implementation never runs where the moved write does
// (a test that passes one to the moved code sees the patcher's write).
func UnseenMethods(dir, name string, seen map[string]bool) string {
	return firstInModule(dir, func(dir, pkgPath string) string {
		return methodsIn(dir, pkgPath, name, seen)
	})
}

// ModulePath is the module path of dir's module, "" when none is found.
func ModulePath(dir string) string {
	_, modPath := moduleOf(dir)
	return modPath
}

// methodsIn is UnseenMethods for the package in dir (import path pkgPath).
func methodsIn(dir, pkgPath, name string, seen map[string]bool) string {
	keep := func(base string) bool {
		file, err := filepath.Abs(filepath.Join(dir, base))
		return err == nil && !seen[file] && !strings.HasSuffix(base, "_test.go")
	}
	return eachGoFile(dir, pkgPath, keep, func(fset *token.FileSet, f *ast.File, rel string) string {
		found := ""
		ast.Inspect(f, func(n ast.Node) bool {
			if fd, ok := n.(*ast.FuncDecl); ok && fd.Recv != nil && fd.Name.Name == name && found == "" {
				found = fmt.Sprintf("%s:%d", rel, fset.Position(fd.Pos()).Line)
			}
			return found == ""
		})
		if found != "" {
			return "a method " + name + " is declared at " + found + ", in a file -fix does not load"
		}
		return ""
	})
}
