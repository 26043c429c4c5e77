package ondisk

import (
	"go/ast"
	"go/token"
	"path"
	"strconv"
	"strings"
)

// UnseenCalls says where the module of dir may call the exported function
// name of package pkg outside the packages analyzed: a test file that
// names it (the command loads no test file), or a package of the module
// that imports pkg and was not analyzed; "" when nowhere. -fix moves an
// exported helper with its callers only when it has none unseen
// (docs/lint.md). Files that cannot be read or parsed count as calls.
func UnseenCalls(dir, pkg, name string, analyzed map[string]bool) string {
	return firstInModule(dir, func(dir, pkgPath string) string {
		return unseenIn(dir, pkgPath, pkg, name, analyzed)
	})
}

// unseenIn is UnseenCalls for the package in dir (import path pkgPath).
func unseenIn(dir, pkgPath, pkg, name string, analyzed map[string]bool) string {
	keep := func(base string) bool { return strings.HasSuffix(base, "_test.go") || !analyzed[pkgPath] }
	return eachGoFile(dir, pkgPath, keep, func(_ *token.FileSet, f *ast.File, rel string) string {
		test := strings.HasSuffix(rel, "_test.go")
		local := ""
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == pkg {
				local = path.Base(pkg)
				if imp.Name != nil {
					local = imp.Name.Name
				}
			}
		}
		switch {
		case !test && local != "":
			return "package " + pkgPath + " imports " + pkg + " and was not analyzed (run -fix on ./... at the module's root)"
		case test && (local != "" && names(f, local, name) || pkgPath == pkg && names(f, "", name)):
			return "the test file " + rel + " uses " + name + ", and -fix loads no test file"
		}
		return ""
	})
}

// names reports whether f names qual.name (name alone when qual is "",
// or for a dot import).
func names(f *ast.File, qual, name string) bool {
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok && n.Sel.Name == name && (x.Name == qual || qual == ".") {
				found = true
			}
		case *ast.Ident:
			if (qual == "" || qual == ".") && n.Name == name {
				found = true
			}
		}
		return !found
	})
	return found
}
