package scaffold

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// modIndex is the module's Go files go test compiles, parsed, by package.
type modIndex struct {
	fset   *token.FileSet
	files  []*modFile         // the files make test compiles
	pkgs   map[string]*modPkg // by import path
	groups []string           // the module's API groups (+groupName)
	// the package-level variables being resolved (packageVar), against
	// an initialization cycle go test would refuse
	resolving map[string]bool
	fakeVars  map[string]bool // package-level variables that hold a fake client (findFakeVars)
}

// modPkg is what init reads of a package of the module: its types marked
// +kubebuilder:object:root=true (its CRDs' kinds), the first result of
// each function and method, by name (file nil where two disagree), its
// package-level variables and constants, and its generated apply
// configurations: type name → the apiVersion its constructor sets.
type modPkg struct {
	roots   map[string]bool
	results map[string]funcResult
	vars    map[string]pkgVar
	consts  map[string]pkgVar
	acs     map[string]string
}

// pkgVar is a package-level variable: its type, or else its value (file
// nil where init cannot say: declared twice, or a second result).
type pkgVar struct {
	typ, val ast.Expr
	file     *modFile
}

type funcResult struct {
	typ  ast.Expr
	file *modFile
}

type modFile struct {
	f           *ast.File
	pkg         string            // its package's import path
	imports     map[string]string // name → path
	importSpecs map[string]*ast.ImportSpec
}

// indexModule parses the Go files go test compiles in the module at dir,
// whose path is module; nested modules' too (an api/go.mod the root
// module replaces), whose types and functions resolve, but whose code
// make test does not compile: their files are in idx.pkgs, not idx.files.
func indexModule(dir, module string) (*modIndex, error) {
	idx := &modIndex{fset: token.NewFileSet(), pkgs: map[string]*modPkg{}, resolving: map[string]bool{}}
	return idx, idx.walk(dir, module, true)
}

// walk indexes the packages of the module at dir, whose path is module;
// compiled says make test compiles them.
func (idx *modIndex) walk(dir, module string, compiled bool) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		name := d.Name()
		if path != dir && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "bin" || name == "vendor" || name == "testdata") {
			return filepath.SkipDir
		}
		if path != dir && fileExists(filepath.Join(path, "go.mod")) {
			if nested, err := modulePath(path); err == nil {
				if err := idx.walk(path, nested, false); err != nil {
					return err
				}
			}
			return filepath.SkipDir
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		return idx.parsePackage(path, strings.TrimSuffix(module+"/"+filepath.ToSlash(rel), "/."), compiled)
	})
}

// parsePackage indexes the Go files of the folder pkgDir (in idx.files
// where compiled).
func (idx *modIndex) parsePackage(pkgDir, importPath string, compiled bool) error {
	entries, err := os.ReadDir(pkgDir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		if ok, err := build.Default.MatchFile(pkgDir, e.Name()); err != nil || !ok {
			continue // not compiled here (build constraints), or unreadable: go test would say
		}
		f, err := parser.ParseFile(idx.fset, filepath.Join(pkgDir, e.Name()), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			continue // go test says what is wrong with it
		}
		p := idx.pkgs[importPath]
		if p == nil {
			p = &modPkg{roots: map[string]bool{}, results: map[string]funcResult{}, vars: map[string]pkgVar{}, consts: map[string]pkgVar{}, acs: map[string]string{}}
			idx.pkgs[importPath] = p
		}
		mf := &modFile{f: f, pkg: importPath, imports: map[string]string{}, importSpecs: map[string]*ast.ImportSpec{}}
		for _, s := range f.Imports {
			name, path := importName(s)
			mf.imports[name], mf.importSpecs[name] = path, s
		}
		if compiled {
			idx.files = append(idx.files, mf)
		}
		idx.index(p, mf)
	}
	return nil
}

// index notes mf's root types, first results and +groupName in p and idx.
func (idx *modIndex) index(p *modPkg, mf *modFile) {
	for _, cg := range mf.f.Comments {
		for _, c := range cg.List {
			if g, ok := strings.CutPrefix(strings.TrimSpace(strings.TrimPrefix(c.Text, "//")), "+groupName="); ok && !slices.Contains(idx.groups, g) {
				idx.groups = append(idx.groups, g)
			}
		}
	}
	prev := mf.f.Name.End()
	for _, d := range mf.f.Decls {
		from := prev
		prev = d.End()
		switch d := d.(type) {
		case *ast.FuncDecl:
			if typ, v := constructorAPIVersion(d); typ != "" {
				p.acs[typ] = v
			}
			if d.Type.Results == nil || len(d.Type.Results.List) == 0 {
				continue
			}
			r := funcResult{d.Type.Results.List[0].Type, mf}
			if q, seen := p.results[d.Name.Name]; seen && (q.file == nil || resultKey(q) != resultKey(r)) {
				r.file = nil
			}
			p.results[d.Name.Name] = r
		case *ast.GenDecl:
			for _, s := range d.Specs {
				if vs, ok := s.(*ast.ValueSpec); ok && d.Tok == token.CONST && len(vs.Values) == len(vs.Names) {
					for i, id := range vs.Names {
						p.consts[id.Name] = pkgVar{typ: vs.Type, val: vs.Values[i], file: mf}
					}
				}
				if vs, ok := s.(*ast.ValueSpec); ok && d.Tok == token.VAR {
					for i, id := range vs.Names {
						v := pkgVar{typ: vs.Type, file: mf}
						if len(vs.Values) == len(vs.Names) {
							v.val = vs.Values[i]
						}
						if _, seen := p.vars[id.Name]; seen || v.typ == nil && v.val == nil {
							v.file = nil
						}
						p.vars[id.Name] = v
					}
				}
				ts, ok := s.(*ast.TypeSpec)
				if !ok {
					continue
				}
				// a type's markers are the comments above it, as
				// controller-tools reads them (packageKinds)
				doc := markerComments(mf.f, from, ts.Pos())
				if len(d.Specs) > 1 {
					doc = ts.Doc
				}
				if hasMarker(doc, "+kubebuilder:object:root=true") {
					p.roots[ts.Name.Name] = true
				}
			}
		}
	}
}

// resultKey is a result type as written, with its package's path.
func resultKey(r funcResult) string {
	t := types.ExprString(r.typ)
	if q, _, ok := strings.Cut(strings.TrimPrefix(t, "*"), "."); ok {
		return t + " " + r.file.imports[q]
	}
	return t + " " + r.file.pkg
}

// importName is the name an import is known by (the last path element
// where not renamed, as kubebuilder's imports are) and its path.
func importName(s *ast.ImportSpec) (name, path string) {
	path, _ = strconv.Unquote(s.Path.Value)
	name = path[strings.LastIndexByte(path, '/')+1:]
	if s.Name != nil {
		name = s.Name.Name
	}
	return name, path
}
