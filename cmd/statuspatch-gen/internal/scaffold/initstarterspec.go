package scaffold

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// starterSpecRequest is what starterSpec needs of the starter test's kind:
// the project, the kind's resource, the folder of its API package and the
// CRD directory the test names (both project-relative, slash-separated),
// the test file, and the alias the test imports the API package under.
type starterSpecRequest struct {
	dir, apiDir, crdDir, test, alias string
	res                              kbResource
}

// starterSpec is the statements createStarter<Kind> runs on obj before it
// creates it, each with a comment saying why: the spec fields the kind's
// CRD (read from the CRD directory, as testenv installs it) requires, and
// those the Go type sends as a zero value the schema refuses, set to a
// value the schema accepts (fillSpec). What cannot be made exact (a
// pattern, a format, a CEL rule, ...) is a note,
// "types.go:line: Kind.spec.path has what: set it in createStarterKind (test)",
// and a TODO line in the test. A kind without a CRD there yet is a note.
// imports are the packages of other modules the statements name
// (initstarterext.go).
func starterSpec(q starterSpecRequest) (stmts, notes []string, imports []specImport, err error) {
	crd, err := kindCRD(filepath.Join(q.dir, filepath.FromSlash(q.crdDir)), q.res)
	if err != nil {
		return nil, nil, nil, err
	}
	schema := versionSchema(crd, q.res.Version)
	if schema == nil {
		return nil, []string{fmt.Sprintf("statuspatch-gen init: %s: no CustomResourceDefinition of %s served at %s (make manifests writes it): createStarter%s (%s) sets no spec field; set the ones its schema requires", q.crdDir, q.res.Kind, q.res.Version, q.res.Kind, q.test)}, nil, nil
	}
	pkg, err := parseAPIPackage(q.dir, q.apiDir)
	if err != nil {
		return nil, nil, nil, err
	}
	kind, ok := pkg.structs[q.res.Kind]
	if !ok {
		return nil, nil, nil, nil
	}
	f := &specFiller{pkg: pkg, kind: q.res.Kind, alias: q.alias, test: q.test, names: map[string]string{}}
	for _, jf := range jsonFields(kind) {
		if spec, ok := schema.Properties["spec"]; ok && jf.json == "spec" {
			f.field(&spec, slices.Contains(schema.Required, "spec"), jf, "obj."+jf.name, q.res.Kind+".spec")
		}
	}
	return f.stmts, f.notes, f.testImports(), nil
}

// kindCRD reads the CustomResourceDefinitions of dir as testenv's
// WithCRDDirectory does (its .yaml, .yml and .json files, and those of its
// bases/) and returns the one of r's kind and group, or nil.
func kindCRD(dir string, r kbResource) (*apiextensionsv1.CustomResourceDefinition, error) {
	var files []string
	for _, d := range []string{dir, filepath.Join(dir, "bases")} {
		entries, err := os.ReadDir(d)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("statuspatch-gen init: %w", err)
		}
		for _, e := range entries {
			if ext := path.Ext(e.Name()); !e.IsDir() && (ext == ".yaml" || ext == ".yml" || ext == ".json") {
				files = append(files, filepath.Join(d, e.Name()))
			}
		}
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("statuspatch-gen init: %w", err)
		}
		reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
		for {
			doc, err := reader.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return nil, fmt.Errorf("statuspatch-gen init: %s: %w", file, err)
			}
			var crd apiextensionsv1.CustomResourceDefinition
			if yaml.Unmarshal(doc, &crd) != nil || crd.Kind != "CustomResourceDefinition" || crd.Spec.Names.Kind != r.Kind {
				continue
			}
			if g := crd.Spec.Group; r.Group == "" || g == r.Group || strings.HasPrefix(g, r.Group+".") {
				return &crd, nil
			}
		}
	}
	return nil, nil
}

// versionSchema is the schema of crd's served version named version, or nil.
func versionSchema(crd *apiextensionsv1.CustomResourceDefinition, version string) *apiextensionsv1.JSONSchemaProps {
	if crd == nil {
		return nil
	}
	for _, v := range crd.Spec.Versions {
		if v.Name == version && v.Served && v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
			return v.Schema.OpenAPIV3Schema
		}
	}
	return nil
}

// apiPackage is an API package's top-level type declarations, parsed
// without type checking, by name: the project's, or one its types use
// (initstarterext.go). Its lines are read through files, shared by all.
type apiPackage struct {
	files   *pkgFiles
	path    string // the import path; "" for the project's API package
	structs map[string]*ast.StructType
	types   map[string]*ast.TypeSpec
	imports map[string]string // a file's import name → its path, over all files
	// the types with a MarshalJSON or UnmarshalJSON method: their JSON is
	// not their fields' (metav1.Time, resource.Quantity)
	marshals map[string]bool
}

// parseAPIPackage parses the non-test Go files of the project's folder rel
// (none when it does not exist).
func parseAPIPackage(dir, rel string) (*apiPackage, error) {
	files := &pkgFiles{fset: token.NewFileSet(), shown: map[string]string{}, project: dir, ext: map[string]*apiPackage{}}
	abs := filepath.Join(dir, filepath.FromSlash(rel))
	if _, err := os.Stat(abs); errors.Is(err, fs.ErrNotExist) {
		return files.newPackage(""), nil // no kind there: nothing to fill
	}
	return files.parse(abs, rel, "")
}

// line is "file:line" of n, the file project-relative (a package of
// another module's by its import path).
func (p *apiPackage) line(n ast.Node) string {
	pos := p.files.fset.Position(n.Pos())
	return fmt.Sprintf("%s:%d", path.Join(p.files.shown[filepath.Dir(pos.Filename)], filepath.Base(pos.Filename)), pos.Line)
}

// jsonField is a struct field as encoding/json sees it: its name in JSON,
// and whether a zero value is left out (omitempty, omitzero).
type jsonField struct {
	field               *ast.Field
	name                string // the Go name
	json                string
	omitempty, omitzero bool
	inline              bool
}

// jsonFields are st's fields in declaration order; an embedded field
// without a JSON name (inline) is listed with inline set.
func jsonFields(st *ast.StructType) []jsonField {
	var out []jsonField
	for _, fl := range st.Fields.List {
		tag := ""
		if fl.Tag != nil {
			tag = reflectTag(fl.Tag.Value, "json")
		}
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		o := strings.Split(opts, ",")
		jf := jsonField{field: fl, json: name, omitempty: slices.Contains(o, "omitempty"), omitzero: slices.Contains(o, "omitzero")}
		if len(fl.Names) == 0 {
			jf.inline = name == ""
			jf.name = typeName(fl.Type)
			if jf.json == "" {
				jf.json = jf.name
			}
			out = append(out, jf)
			continue
		}
		for _, id := range fl.Names {
			if !id.IsExported() {
				continue
			}
			jf.name = id.Name
			if name == "" {
				jf.json = id.Name
			}
			out = append(out, jf)
		}
	}
	return out
}

// reflectTag is reflect.StructTag.Get on a tag literal.
func reflectTag(lit, key string) string {
	tag, err := strconv.Unquote(lit)
	if err != nil {
		return ""
	}
	return reflect.StructTag(tag).Get(key)
}

// typeName is the name of an embedded field's type.
func typeName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.StarExpr:
		return typeName(t.X)
	case *ast.SelectorExpr:
		return t.Sel.Name
	}
	return ""
}

// render is the starter test of k, gofmt'd (the spec lines' comments
// aligned).
func (k starterKind) render() (string, error) {
	var b strings.Builder
	if err := starterTemplate.Execute(&b, k); err != nil {
		return "", fmt.Errorf("statuspatch-gen init: starter test for %s: %w", k.Kind, err)
	}
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		return "", fmt.Errorf("statuspatch-gen init: starter test for %s: %w", k.Kind, err)
	}
	return string(src), nil
}

// starterTemplate is the starter test init writes (starterTest): the
// reconciler once against a real API server, the status it left compared
// with the one the server stores; for a kind with a status, also two
// reconciles of one object at once, met at a barrier after their first
// read, where no status write may store over a state its reconcile had
// not read (a decision made on a read another write had acted on). It is
// judged on the server's answers: the resourceVersions each reconcile had
// (its Gets, its Lists' items, its own writes' answers) against the one
// stored before its write, the writes of the object serialized; a write
// that changes nothing stores nothing and is not one.
