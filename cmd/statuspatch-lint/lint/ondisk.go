package lint

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// generatedFileName is the file statuspatch-gen writes in every package
// it generates.
const generatedFileName = "zz_generated.statuspatch.go"

// onDiskPatchers caches, per module root directory, the patchers that
// statuspatch-gen wrote into the module: a package that does not import
// them yet (a new user's controller, before the first change) has no fact
// naming them, and its message should still say where they are.
var onDiskPatchers sync.Map // module root dir -> []patcherInfo

// findPatcherOnDisk looks for a generated <Kind>StatusPatcher for k in the
// pass's module, on disk: the zz_generated.statuspatch.go files of its
// packages, outside testdata, vendor, hidden folders and nested modules.
func findPatcherOnDisk(pass *analysis.Pass, k kind) (patcherInfo, bool) {
	if pass.Module == nil || pass.Module.Path == "" || len(pass.Files) == 0 {
		return patcherInfo{}, false
	}
	root := moduleRoot(pass.Fset.File(pass.Files[0].Pos()).Name())
	if root == "" {
		return patcherInfo{}, false
	}
	v, ok := onDiskPatchers.Load(root)
	if !ok {
		v, _ = onDiskPatchers.LoadOrStore(root, scanModule(root, pass.Module.Path))
	}
	objPkg := ""
	if k.pkg != nil {
		objPkg = k.pkg.Path()
	}
	for _, c := range v.([]patcherInfo) {
		if c.Kind == k.name && (c.ObjectPkg == "" || objPkg == "" || c.ObjectPkg == objPkg) {
			return c, true
		}
	}
	return patcherInfo{}, false
}

// moduleRoot returns the nearest folder at or above file's that holds a
// go.mod, or "".
func moduleRoot(file string) string {
	dir := filepath.Dir(file)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// scanModule lists the patchers of every generated file under root, in
// walk (lexical) order; unreadable files and folders are skipped: the
// result only improves a message.
func scanModule(root, modPath string) []patcherInfo {
	var ps []patcherInfo
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p == root {
				return nil
			}
			name := d.Name()
			if name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() != generatedFileName {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(p))
		if err != nil {
			return nil
		}
		ps = append(ps, scanGeneratedFile(p, path.Join(modPath, filepath.ToSlash(rel)))...)
		return nil
	})
	return ps
}

// scanGeneratedFile lists the <Kind>StatusPatcher struct types declared in
// one generated file of package pkgPath, with the object's package from
// the New<Kind>StatusPatcher constructor's second parameter.
func scanGeneratedFile(file, pkgPath string) []patcherInfo {
	src, err := os.ReadFile(file)
	if err != nil || !bytes.Contains(src, []byte(patcherSuffix+" struct")) {
		return nil
	}
	f, err := parser.ParseFile(token.NewFileSet(), file, src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	imports := map[string]string{} // local name -> path
	for _, imp := range f.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		name := path.Base(p)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		imports[name] = p
	}
	objPkgs := map[string]string{} // patcher type -> object package
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "New") {
			continue
		}
		if params := flatParams(fn.Type.Params); len(params) >= 2 {
			objPkgs[strings.TrimPrefix(fn.Name.Name, "New")] = exprPkg(params[1], imports, pkgPath)
		}
	}
	var ps []patcherInfo
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			ts := spec.(*ast.TypeSpec)
			kind, ok := strings.CutSuffix(ts.Name.Name, patcherSuffix)
			if _, isStruct := ts.Type.(*ast.StructType); !ok || kind == "" || !isStruct || !ts.Name.IsExported() {
				continue
			}
			ps = append(ps, patcherInfo{Kind: kind, Type: ts.Name.Name, Pkg: pkgPath, ObjectPkg: objPkgs[ts.Name.Name]})
		}
	}
	return ps
}

// flatParams lists a parameter list's types, one per parameter.
func flatParams(fl *ast.FieldList) []ast.Expr {
	var ts []ast.Expr
	for _, f := range fl.List {
		n := max(len(f.Names), 1)
		for range n {
			ts = append(ts, f.Type)
		}
	}
	return ts
}

// exprPkg returns the package of a (pointer to a) named type expression:
// the import of a qualified name, pkgPath for an unqualified one, "" if
// unknown.
func exprPkg(e ast.Expr, imports map[string]string, pkgPath string) string {
	if star, ok := e.(*ast.StarExpr); ok {
		e = star.X
	}
	switch e := e.(type) {
	case *ast.Ident:
		return pkgPath
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok {
			return imports[x.Name]
		}
	}
	return ""
}
