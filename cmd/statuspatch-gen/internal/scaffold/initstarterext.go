package scaffold

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// A spec field whose type is another package's (kubebuilder's CronJob
// tutorial: JobTemplate batchv1.JobTemplateSpec, whose CRD schema requires
// spec.template.spec.containers, each with a name) is filled from that
// package's declarations, parsed as the API package's are: its folder is
// the one `go list -find` names in the project's module, and the test
// imports it under a name of its own. A type with its own JSON (a
// MarshalJSON or UnmarshalJSON method: metav1.Time, resource.Quantity),
// a package go list cannot find, or a name init cannot resolve stays a
// note and a TODO, as before.

// pkgFiles is the file set of the API package and the packages its types
// use, how each folder is shown in a note, and those packages by path.
type pkgFiles struct {
	fset    *token.FileSet
	shown   map[string]string // folder → project-relative, or import path
	project string
	ext     map[string]*apiPackage // by import path; nil: not found
}

func (fs *pkgFiles) newPackage(importPath string) *apiPackage {
	return &apiPackage{files: fs, path: importPath, structs: map[string]*ast.StructType{}, types: map[string]*ast.TypeSpec{},
		imports: map[string]string{}, marshals: map[string]bool{}}
}

// parse reads the non-test Go files of the folder abs (shown as shown),
// the package importPath.
func (fs *pkgFiles) parse(abs, shown, importPath string) (*apiPackage, error) {
	p := fs.newPackage(importPath)
	fs.shown[abs] = shown
	entries, err := os.ReadDir(abs)
	if err != nil {
		return nil, fmt.Errorf("statuspatch-gen init: %w", err)
	}
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fs.fset, filepath.Join(abs, n), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("statuspatch-gen init: %w", err)
		}
		p.add(f)
	}
	return p, nil
}

// add indexes f's type declarations, imports and JSON methods.
func (p *apiPackage) add(f *ast.File) {
	for _, imp := range f.Imports {
		ip, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		name := defaultImportName(ip)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		p.imports[name] = ip
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil && len(d.Recv.List) == 1 && (d.Name.Name == "MarshalJSON" || d.Name.Name == "UnmarshalJSON") {
				p.marshals[typeName(d.Recv.List[0].Type)] = true
			}
		case *ast.GenDecl:
			if d.Tok != token.TYPE {
				continue
			}
			for _, s := range d.Specs {
				ts := s.(*ast.TypeSpec)
				if _, dup := p.types[ts.Name.Name]; dup {
					continue
				}
				p.types[ts.Name.Name] = ts
				if st, ok := ts.Type.(*ast.StructType); ok {
					p.structs[ts.Name.Name] = st
				}
			}
		}
	}
}

// external is the package importPath, parsed from the folder go list finds
// for it in the project's module; nil when it finds none.
func (fs *pkgFiles) external(importPath string) *apiPackage {
	if p, seen := fs.ext[importPath]; seen {
		return p
	}
	fs.ext[importPath] = nil
	cmd := exec.Command("go", "list", "-find", "-f", "{{.Dir}}", importPath)
	cmd.Dir = fs.project
	out, err := cmd.Output()
	dir := strings.TrimSpace(string(out))
	if err != nil || dir == "" {
		return nil
	}
	p, err := fs.parse(dir, importPath, importPath)
	if err != nil {
		return nil
	}
	fs.ext[importPath] = p
	return p
}

var versionElem = regexp.MustCompile(`^v[0-9]+((alpha|beta)[0-9]*)?$`)

// defaultImportName is the name an import of ip without one gets, by the
// convention its last element is its package's name (gopkg.in's .vN cut).
func defaultImportName(ip string) string {
	name := path.Base(ip)
	if i := strings.Index(name, ".v"); i > 0 {
		name = name[:i]
	}
	return strings.ReplaceAll(name, "-", "_")
}

// testImportName is the name the starter test imports ip under: the
// group and version of an API package (corev1, batchv1), else its
// default name; taken is what the test names already.
func testImportName(ip string, taken map[string]bool) string {
	name := defaultImportName(ip)
	if versionElem.MatchString(name) {
		name = strings.ReplaceAll(path.Base(path.Dir(ip)), "-", "") + name
	}
	for taken[name] {
		name += "x"
	}
	return name
}
