package ondisk

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// TestRefsArg returns, for each package of the module of dir, the
// unexported functions and methods of the package that its in-package
// test files (package p, not p_test) name: <package path>=<name>+...,
// comma-separated, a package whose tests name none as <package path>=.
// -fix changes the signature of a write-only helper only when no test
// names it (docs/lint.md): by default the command does not load test
// files, so it scans them here. A package whose files cannot be read or
// parsed gets no entry (the analyzer then leaves its helpers).
func TestRefsArg(dir string) string {
	root, modPath := moduleOf(dir)
	if modPath == "" {
		return ""
	}
	var entries []string
	walkPackageDirs(root, modPath, func(dir, pkgPath string) bool {
		if names, ok := packageTestRefs(dir); ok {
			entries = append(entries, pkgPath+"="+strings.Join(names, "+"))
		}
		return true
	})
	return strings.Join(entries, ",")
}

// packageTestRefs returns the unexported function and method names
// declared in dir's Go files that its in-package test files name, sorted;
// false when dir has no Go file or one cannot be parsed.
func packageTestRefs(dir string) ([]string, bool) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, false
	}
	fset := token.NewFileSet()
	declared := map[string]bool{}
	used := map[string]bool{}
	pkgNames := map[string]bool{}
	var tests []*ast.File
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, false
		}
		if strings.HasSuffix(e.Name(), "_test.go") {
			tests = append(tests, f)
			continue
		}
		pkgNames[f.Name.Name] = true
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && !fd.Name.IsExported() {
				declared[fd.Name.Name] = true
			}
		}
	}
	if len(pkgNames) == 0 {
		return nil, false
	}
	for _, f := range tests {
		if !pkgNames[f.Name.Name] {
			continue // an external test package: unexported names are out of its reach
		}
		imported := map[string]bool{} // the file's package names: reconcile.Request is no call of reconcile
		for _, imp := range f.Imports {
			if imp.Name != nil {
				imported[imp.Name.Name] = true
			} else if p, err := strconv.Unquote(imp.Path.Value); err == nil {
				imported[path.Base(p)] = true
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ImportSpec:
				return false
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok && imported[x.Name] {
					return false
				}
			case *ast.Ident:
				if declared[n.Name] {
					used[n.Name] = true
				}
			}
			return true
		})
	}
	names := make([]string, 0, len(used))
	for n := range used {
		names = append(names, n)
	}
	slices.Sort(names)
	return names, true
}
