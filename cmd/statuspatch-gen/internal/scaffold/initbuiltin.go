package scaffold

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// builtinPkg is where the built-in kinds' Go types live: testenv's
// in-process server serves none of them (CRDs only).
const builtinPkg = "k8s.io/api/"

// builtinObjectArg is the table of calls that need their object's kind
// served by the API server, and which argument the object is: the
// builder's For, Owns and Watches (the controller's informer lists and
// watches the kind), the client's reads and writes (Status().Update is an
// Update), and controllerutil's CreateOrUpdate and CreateOrPatch.
var builtinObjectArg = map[string]int{
	"For": 0, "Owns": 0, "Watches": 0,
	"Get": 2, "List": 1, "Create": 1, "Update": 1, "Patch": 1, "Delete": 1, "DeleteAllOf": 1,
	"CreateOrUpdate": 2, "CreateOrPatch": 2,
}

// builtinUse is one call on an object of a built-in kind.
type builtinUse struct {
	pos  string // file:line, slash-separated and relative to the project
	call string // the method or function called
	kind string // e.g. corev1.ConfigMap (k8s.io/api/core/v1)
	at   token.Pos
}

func (u builtinUse) String() string { return fmt.Sprintf("%s: %s of a %s", u.pos, u.call, u.kind) }

// builtinList says the first three uses, and how many more.
func builtinList(uses []builtinUse) string {
	var b strings.Builder
	for i, u := range uses[:min(3, len(uses))] {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(u.String())
	}
	if len(uses) > 3 {
		fmt.Fprintf(&b, "; and %d more", len(uses)-3)
	}
	return b.String()
}

// builtinKindUses finds the calls (builtinObjectArg) on objects of
// built-in kinds in the Go files go test compiles in the module at dir
// (build constraints hold, so a file behind a build tag make test never
// sets is not read; nested modules, testdata, vendor and hidden folders
// are skipped). The object's kind is exact or not counted: a composite
// literal or new of a k8s.io/api type, a variable of the function declared
// with one and never with anything else, or the first result of a
// function of the package declared to return one. RBAC markers are not
// read: they grant, and a reconciler granted Events or Leases may use
// neither in a test.
func builtinKindUses(dir string) ([]builtinUse, error) {
	var uses []builtinUse
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		name := d.Name()
		if path != dir && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "bin" || name == "vendor" || name == "testdata" || fileExists(filepath.Join(path, "go.mod"))) {
			return filepath.SkipDir
		}
		found, err := builtinUsesIn(dir, path)
		uses = append(uses, found...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("statuspatch-gen init: %w", err)
	}
	return uses, nil
}

// builtinUsesIn is builtinKindUses for the Go files of one folder, pkgDir.
func builtinUsesIn(dir, pkgDir string) ([]builtinUse, error) {
	entries, err := os.ReadDir(pkgDir)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		if ok, err := build.Default.MatchFile(pkgDir, e.Name()); err != nil || !ok {
			continue // not compiled here (build constraints), or unreadable: go test would say
		}
		f, err := parser.ParseFile(fset, filepath.Join(pkgDir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			continue // go test says what is wrong with it
		}
		files = append(files, f)
	}
	// the kind of the first result of each function and method of the
	// package (a test package's too), by name; "" where two disagree
	results := map[string]string{}
	for _, f := range files {
		k := kinds{imports: builtinImports(f)}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Type.Results != nil && len(fd.Type.Results.List) > 0 {
				kind := k.typ(fd.Type.Results.List[0].Type)
				if prev, seen := results[fd.Name.Name]; seen && prev != kind {
					kind = ""
				}
				results[fd.Name.Name] = kind
			}
		}
	}
	var uses []builtinUse
	for _, f := range files {
		k := kinds{imports: builtinImports(f), pkgs: importNames(f), results: results}
		if len(k.imports) == 0 {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			k.locals = localKinds(fd, k)
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if i, ok := builtinObjectArg[sel.Sel.Name]; ok && i < len(call.Args) {
					if kind := k.of(call.Args[i]); kind != "" {
						p := fset.Position(sel.Sel.Pos()) // a chain's own line
						rel, _ := filepath.Rel(dir, p.Filename)
						uses = append(uses, builtinUse{pos: filepath.ToSlash(rel) + ":" + strconv.Itoa(p.Line), call: sel.Sel.Name, kind: kind, at: sel.Sel.Pos()})
					}
				}
				return true
			})
		}
	}
	// in the files' order, and each file's in its lines' (an inner call
	// of a chain is met after the outer)
	slices.SortStableFunc(uses, func(a, b builtinUse) int { return cmp.Compare(a.at, b.at) })
	return uses, nil
}

// builtinImports maps the file's names of k8s.io/api packages to their paths.
func builtinImports(f *ast.File) map[string]string {
	m := map[string]string{}
	for _, s := range f.Imports {
		if name, p := importName(s); strings.HasPrefix(p, builtinPkg) {
			m[name] = p
		}
	}
	return m
}

// importNames are the names f's imports are known by.
func importNames(f *ast.File) map[string]bool {
	m := map[string]bool{}
	for _, s := range f.Imports {
		name, _ := importName(s)
		m[name] = true
	}
	return m
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

// kinds resolves an expression to its built-in kind, or "".
type kinds struct {
	imports map[string]string // name → k8s.io/api package
	pkgs    map[string]bool   // the file's imported package names
	results map[string]string // function of the package → its first result's kind
	locals  map[string]string // variable → its kind, one function's
}

// typ is the kind of a type expression: T or *T with T from k8s.io/api.
func (k kinds) typ(t ast.Expr) string {
	if st, ok := t.(*ast.StarExpr); ok {
		t = st.X
	}
	sel, ok := t.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	if id, ok := sel.X.(*ast.Ident); ok && k.imports[id.Name] != "" {
		return fmt.Sprintf("%s.%s (%s)", id.Name, sel.Sel.Name, k.imports[id.Name])
	}
	return ""
}

// of is the kind of the value of e.
func (k kinds) of(e ast.Expr) string {
	switch e := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return k.of(e.X)
		}
	case *ast.CompositeLit:
		return k.typ(e.Type)
	case *ast.Ident:
		return k.locals[e.Name]
	case *ast.CallExpr:
		if id, ok := e.Fun.(*ast.Ident); ok && id.Name == "new" && len(e.Args) == 1 {
			return k.typ(e.Args[0])
		}
		var name string
		switch fn := e.Fun.(type) {
		case *ast.Ident:
			name = fn.Name
		case *ast.SelectorExpr:
			if id, ok := fn.X.(*ast.Ident); ok && k.pkgs[id.Name] {
				return "" // another package's function
			}
			name = fn.Sel.Name
		}
		return k.results[name]
	case *ast.TypeAssertExpr:
		if e.Type != nil {
			return k.typ(e.Type)
		}
	}
	return ""
}

// localKinds are the variables and parameters of fd (its function
// literals' too) declared with a built-in kind: var x T, x := &T{},
// x := new(T), x, err := f(), c *T; a name also declared with anything
// else in fd (a range variable, another type) is dropped (not exact).
func localKinds(fd *ast.FuncDecl, k kinds) map[string]string {
	m := map[string]string{}
	other := map[string]bool{}
	bind := func(id *ast.Ident, kind string) {
		if id.Name == "_" {
			return
		}
		if kind == "" || (m[id.Name] != "" && m[id.Name] != kind) {
			other[id.Name] = true
			return
		}
		m[id.Name] = kind
	}
	ast.Inspect(fd, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			for _, id := range n.Names {
				bind(id, k.typ(n.Type))
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := e.(*ast.Ident); ok && n.Tok == token.DEFINE {
					bind(id, "")
				}
			}
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				return true
			}
			for i, l := range n.Lhs {
				id, ok := l.(*ast.Ident)
				if !ok {
					continue
				}
				switch {
				case len(n.Rhs) == len(n.Lhs):
					bind(id, k.of(n.Rhs[i]))
				case i == 0 && len(n.Rhs) == 1:
					bind(id, k.of(n.Rhs[0]))
				default:
					bind(id, "")
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				switch {
				case n.Type != nil:
					bind(id, k.typ(n.Type))
				case i < len(n.Values):
					bind(id, k.of(n.Values[i]))
				default:
					bind(id, "")
				}
			}
		}
		return true
	})
	for name := range other {
		delete(m, name)
	}
	return m
}
