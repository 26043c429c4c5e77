package ondisk

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

	"golang.org/x/mod/modfile"
)

// generatedFileName is the file statuspatch-gen writes in every package
// it generates.
const generatedFileName = "zz_generated.statuspatch.go"

const patcherSuffix = "StatusPatcher"

// A patcherInfo is one generated <Kind>StatusPatcher found on disk.
type patcherInfo struct {
	Kind      string // Widget
	Pkg       string // package declaring the patcher
	ObjectPkg string // package of the object type, "" if unknown
	Into      bool   // the file declares Fetch<Kind>StatusPatcherInto
}

// PatchersArg returns the analyzer's -patchers value for the module of
// dir: the patchers statuspatch-gen wrote into it, so that a package that
// does not import them yet (a new user's controller, before the first
// change) is told where they are, and -fix can move its writes onto them.
// The lookup is the command's, not the analyzer's: analyzers read no file
// outside their package (drivers cache their results by those files).
func PatchersArg(dir string) string {
	root, modPath := moduleOf(dir)
	if modPath == "" {
		return ""
	}
	var entries []string
	for _, p := range scanModule(root, modPath) {
		e := p.Kind + "=" + p.Pkg
		if p.ObjectPkg != "" {
			e = p.ObjectPkg + "." + e
		}
		if p.Into {
			e += ":into" // Fetch<Kind>StatusPatcherInto: -fix reads a held value again into it
		}
		entries = append(entries, e)
	}
	return strings.Join(entries, ",")
}

// moduleOf returns the root folder and the module path of dir's module,
// "" and "" outside one (or when its go.mod names no module).
func moduleOf(dir string) (root, modPath string) {
	root = moduleRoot(dir)
	if root == "" {
		return "", ""
	}
	return root, modulePath(filepath.Join(root, "go.mod"))
}

// modulePath reads the module path of a go.mod file, "" if it has none.
func modulePath(gomod string) string {
	data, err := os.ReadFile(gomod)
	if err != nil {
		return ""
	}
	return modfile.ModulePath(data)
}

// moduleRoot returns the nearest folder at or above dir that holds a
// go.mod, or "".
func moduleRoot(dir string) string {
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
			if skipPackageDir(root, p, d) {
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

// walkPackageDirs calls visit for root and every folder below it that can
// hold a package of the module modPath rooted there (skipPackageDir), with
// the package's import path, folders before their subfolders, until visit
// returns false.
func walkPackageDirs(root, modPath string, visit func(dir, pkgPath string) (more bool)) {
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if skipPackageDir(root, p, d) {
			return filepath.SkipDir
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return nil
		}
		if !visit(p, path.Join(modPath, filepath.ToSlash(rel))) {
			return filepath.SkipAll
		}
		return nil
	})
}

// firstInModule is the first non-empty answer of visit over the package
// folders of dir's module (walkPackageDirs), "" when none answers; the
// walk stops at that answer.
func firstInModule(dir string, visit func(dir, pkgPath string) string) string {
	root, modPath := moduleOf(dir)
	if modPath == "" {
		return "the module of " + dir + " is not found"
	}
	why := ""
	walkPackageDirs(root, modPath, func(dir, pkgPath string) bool {
		why = visit(dir, pkgPath)
		return why == ""
	})
	return why
}

// skipPackageDir reports whether the folder p below the module root holds
// no package of that module: testdata, vendor, a name starting with "."
// or "_", or a nested module (a folder with its own go.mod).
func skipPackageDir(root, p string, d fs.DirEntry) bool {
	if p == root {
		return false
	}
	name := d.Name()
	if name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
		return true
	}
	_, err := os.Stat(filepath.Join(p, "go.mod"))
	return err == nil
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
	into := map[string]bool{}      // patcher type -> Fetch<Type>Into declared
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Fetch") && strings.HasSuffix(fn.Name.Name, patcherSuffix+"Into") {
			into[strings.TrimSuffix(strings.TrimPrefix(fn.Name.Name, "Fetch"), "Into")] = true
		}
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
			ps = append(ps, patcherInfo{Kind: kind, Pkg: pkgPath, ObjectPkg: objPkgs[ts.Name.Name], Into: into[ts.Name.Name]})
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
