package ondisk

import (
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
)

// UnseenMethods says where the module of dir declares a method named
// name in a .go file not in seen (absolute paths): a test file (the
// command loads none), a file of a package not analyzed, or of other
// build tags; "" when nowhere. -fix moves a write past an interface
// call only when no implementation is unseen (docs/lint.md). Files that
// cannot be read or parsed count as declarations.
func UnseenMethods(dir, name string, seen map[string]bool) string {
	root, modPath := moduleOf(dir)
	if modPath == "" {
		return "the module of " + dir + " is not found"
	}
	why := ""
	walkPackageDirs(root, modPath, func(dir, pkgPath string) {
		if why == "" {
			why = methodsIn(dir, pkgPath, name, seen)
		}
	})
	return why
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
		return err == nil && !seen[file]
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
