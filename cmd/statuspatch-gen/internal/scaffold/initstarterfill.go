package scaffold

import (
	"fmt"
	"go/ast"
	gotypes "go/types"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

type schema = apiextensionsv1.JSONSchemaProps

// specFiller writes the statements that make a kind's spec one its CRD
// accepts (starterSpec): it walks the schema beside the Go types, from
// obj.Spec, into what the object sends, a required field or a field sent
// as its zero value (no omitempty; a struct that is not a pointer), and
// sets each whose zero the schema refuses.
type specFiller struct {
	pkg               *apiPackage // the package whose declarations are walked
	kind, alias, test string
	stmts, notes      []string
	names             map[string]string // another package's path → its name in the test
}

// set adds stmt with why as its comment.
func (f *specFiller) set(stmt, why string) {
	f.stmts = append(f.stmts, stmt+" // "+why)
}

// note says a field, at the Go node at, has what init cannot make exact,
// and leaves a TODO for it in the test.
func (f *specFiller) note(at ast.Node, jp, what string) {
	f.notes = append(f.notes, fmt.Sprintf("statuspatch-gen init: %s: %s has %s: set it in createStarter%s (%s)", f.pkg.line(at), jp, what, f.kind, f.test))
	f.stmts = append(f.stmts, fmt.Sprintf("// TODO(user): set %s, which has %s.", strings.TrimPrefix(jp, f.kind+"."), what))
}

// object fills the object schema s held in the Go struct st, at goPath
// (declared at the node at), which the object sends.
func (f *specFiller) object(s *schema, st *ast.StructType, at ast.Node, goPath, jp string) {
	for _, what := range objectUnknowns(s) {
		f.note(at, jp, what)
	}
	seen := map[string]bool{}
	f.members(s, st, goPath, jp, seen)
	for _, r := range s.Required {
		if !seen[r] {
			f.note(at, jp+"."+r, "no Go field with that JSON name")
		}
	}
}

// members fills the fields of st (an inline embedded struct's too) that s
// has properties for, marking each JSON name seen.
func (f *specFiller) members(s *schema, st *ast.StructType, goPath, jp string, seen map[string]bool) {
	for _, jf := range jsonFields(st) {
		if jf.inline {
			if emb, in, ok := f.structOf(jf.field.Type); ok {
				f.within(in, func() { f.members(s, emb, goPath, jp, seen) })
			}
			continue
		}
		ps, ok := s.Properties[jf.json]
		if !ok {
			continue
		}
		seen[jf.json] = true
		f.field(&ps, slices.Contains(s.Required, jf.json), jf, goPath+"."+jf.name, jp+"."+jf.json)
	}
}

// field fills one field of an object the object sends.
func (f *specFiller) field(ps *schema, required bool, jf jsonField, goPath, jp string) {
	at := jf.field
	switch t := jf.field.Type.(type) {
	case *ast.StarExpr:
		if !required {
			return // nil is left out
		}
		if st, in, ok := f.structOf(t.X); ok {
			f.set(goPath+" = &"+f.typeText(t.X)+"{}", "the CRD requires it")
			f.within(in, func() { f.object(ps, st, at, goPath, jp) })
			return
		}
		kind, text := f.basic(t.X), f.typeText(t.X)
		if kind == "" || text == "" {
			f.note(at, jp, "a type init does not fill ("+gotypes.ExprString(t)+")")
			return
		}
		lit, why, what := value(ps, kind, false)
		if what != "" {
			f.note(at, jp, what)
			return
		}
		f.set(goPath+" = new("+text+")", "the CRD requires it")
		if !isZero(lit) {
			f.set("*"+goPath+" = "+lit, "the CRD requires it"+why)
		}
	case *ast.ArrayType:
		f.slice(ps, required, jf, t, goPath, jp)
	case *ast.MapType:
		switch text := f.typeText(t); {
		case !required:
		case ps.MinProperties != nil && *ps.MinProperties > 0:
			f.note(at, jp, fmt.Sprintf("minProperties %d", *ps.MinProperties))
		case jf.omitempty || text == "":
			f.note(at, jp, "a map that must be there and is left out empty")
		default:
			f.set(goPath+" = "+text+"{}", "the CRD requires it")
		}
	default:
		f.scalar(ps, required, jf, goPath, jp)
	}
}

// scalar fills a field of a named or predeclared type: a struct the
// object sends, or a value its JSON leaves out at zero (omitempty) or sends.
func (f *specFiller) scalar(ps *schema, required bool, jf jsonField, goPath, jp string) {
	at, t := jf.field, jf.field.Type
	if st, in, ok := f.structOf(t); ok {
		if !jf.omitzero || required {
			f.within(in, func() { f.object(ps, st, at, goPath, jp) })
		}
		return
	}
	omitted := jf.omitempty || jf.omitzero
	kind := f.basic(t)
	if kind == "" {
		if required || ps.XIntOrString {
			f.note(at, jp, "a type init does not fill ("+gotypes.ExprString(t)+")")
		}
		return
	}
	zeroOK, unknown := zeroAccepted(ps, kind)
	switch {
	case omitted && !required:
		return
	case !omitted && unknown != "":
		f.note(at, jp, unknown)
		return
	case !omitted && zeroOK:
		if len(ps.XValidations) > 0 {
			f.note(at, jp, "x-kubernetes-validations (CEL)")
		}
		return
	}
	lit, why, what := value(ps, kind, omitted)
	if what == "" && len(ps.XValidations) > 0 {
		what = "x-kubernetes-validations (CEL)"
	}
	if what != "" {
		f.note(at, jp, what)
		return
	}
	reason := "the CRD requires it"
	if !required {
		reason = "sent as its zero value (no omitempty), which the CRD refuses"
	}
	f.set(goPath+" = "+lit, reason+why)
}

// slice fills a slice field: one the CRD requires gets minItems elements
// (one when omitempty would leave it out empty), each filled as sent.
func (f *specFiller) slice(ps *schema, required bool, jf jsonField, t *ast.ArrayType, goPath, jp string) {
	if !required {
		return // nil is null, pruned
	}
	text := f.typeText(t)
	n := int64(0)
	if ps.MinItems != nil {
		n = *ps.MinItems
	}
	if n == 0 && jf.omitempty {
		n = 1
	}
	lt := ""
	if ps.XListType != nil {
		lt = *ps.XListType
	}
	switch {
	case t.Len != nil || text == "" || ps.Items == nil || ps.Items.Schema == nil:
		f.note(jf.field, jp, "a type init does not fill ("+gotypes.ExprString(t)+")")
		return
	case n > 1 && lt != "" && lt != "atomic":
		f.note(jf.field, jp, fmt.Sprintf("minItems %d in a list of type %s", n, lt))
		return
	case n == 0:
		f.set(goPath+" = "+text+"{}", "the CRD requires it")
		return
	}
	f.set(fmt.Sprintf("%s = make(%s, %d)", goPath, text, n), fmt.Sprintf("the CRD requires it: minItems %d", n))
	for i := range n {
		f.element(ps.Items.Schema, t.Elt, jf.field, fmt.Sprintf("%s[%d]", goPath, i), fmt.Sprintf("%s[%d]", jp, i))
	}
}

// element fills a slice's element, which JSON sends as it is.
func (f *specFiller) element(ps *schema, t ast.Expr, at ast.Node, goPath, jp string) {
	if st, in, ok := f.structOf(t); ok {
		f.within(in, func() { f.object(ps, st, at, goPath, jp) })
		return
	}
	kind := f.basic(t)
	if kind == "" {
		f.note(at, jp, "a type init does not fill ("+gotypes.ExprString(t)+")")
		return
	}
	zeroOK, unknown := zeroAccepted(ps, kind)
	if unknown != "" {
		f.note(at, jp, unknown)
		return
	}
	if zeroOK {
		return
	}
	lit, why, what := value(ps, kind, false)
	if what != "" {
		f.note(at, jp, what)
		return
	}
	f.set(goPath+" = "+lit, "the CRD requires it"+why)
}

// structOf is the struct type t names, in the package walked or, by its
// import there, another one (in): not one with JSON of its own.
func (f *specFiller) structOf(t ast.Expr) (st *ast.StructType, in *apiPackage, ok bool) {
	name, in := f.named(t)
	if in == nil || in.marshals[name] {
		return nil, nil, false
	}
	st, ok = in.structs[name]
	return st, in, ok
}

// named resolves t, a type name of the package walked or a qualified one
// of a package its files import, to its name and package; nil when it is
// neither, or that package is not found.
func (f *specFiller) named(t ast.Expr) (string, *apiPackage) {
	switch t := t.(type) {
	case *ast.Ident:
		if _, ok := f.pkg.types[t.Name]; ok {
			return t.Name, f.pkg
		}
	case *ast.SelectorExpr:
		x, ok := t.X.(*ast.Ident)
		if !ok {
			return "", nil
		}
		ip, ok := f.pkg.imports[x.Name]
		if !ok {
			return "", nil
		}
		if in := f.pkg.files.external(ip); in != nil {
			if _, ok := in.types[t.Sel.Name]; ok {
				return t.Sel.Name, in
			}
		}
	}
	return "", nil
}

// within runs walk with in as the package walked.
func (f *specFiller) within(in *apiPackage, walk func()) {
	saved := f.pkg
	f.pkg = in
	defer func() { f.pkg = saved }()
	walk()
}

// basic is the schema type of t's JSON when t is a predeclared type init
// sets a value of, or a type declared as one (of the package walked or one
// it imports, without JSON of its own); "" else.
func (f *specFiller) basic(t ast.Expr) string {
	if id, ok := t.(*ast.Ident); ok {
		if _, declared := f.pkg.types[id.Name]; !declared {
			return basicKinds[id.Name]
		}
	}
	name, in := f.named(t)
	if in == nil || in.marshals[name] {
		return ""
	}
	kind := ""
	f.within(in, func() { kind = f.basic(in.types[name].Type) })
	return kind
}

// typeText is t as the test spells it (the API package's names under its
// alias, another package's under the name the test imports it by), or ""
// for a type init cannot name.
func (f *specFiller) typeText(t ast.Expr) string {
	switch t := t.(type) {
	case *ast.Ident, *ast.SelectorExpr:
		if id, ok := t.(*ast.Ident); ok {
			if _, declared := f.pkg.types[id.Name]; !declared {
				if _, ok := basicKinds[id.Name]; ok {
					return id.Name
				}
				return ""
			}
		}
		name, in := f.named(t)
		switch {
		case in == nil:
			return ""
		case in.path == "":
			return f.alias + "." + name
		}
		return f.testName(in.path) + "." + name
	case *ast.StarExpr:
		if x := f.typeText(t.X); x != "" {
			return "*" + x
		}
	case *ast.ArrayType:
		if x := f.typeText(t.Elt); x != "" && t.Len == nil {
			return "[]" + x
		}
	case *ast.MapType:
		if k, v := f.typeText(t.Key), f.typeText(t.Value); k != "" && v != "" {
			return "map[" + k + "]" + v
		}
	}
	return ""
}

// starterNames are the names the starter test declares or imports.
var starterNames = []string{"context", "json", "errors", "fmt", "maps", "regexp", "slices", "strings", "sync", "time", "testing",
	"equality", "apierrors", "apimeta", "metav1", "runtime", "types", "kerrors", "clientgoscheme", "ctrl", "client", "testenv",
	"obj", "t", "env", "name", "scheme",
	"cache", "config", "http", "rest", "m", "r", "mgr"} // starterSetUp<Kind>'s (initstartersetup.go)

// testName is the name the test imports ip by, metav1's the template's.
func (f *specFiller) testName(ip string) string {
	if ip == "k8s.io/apimachinery/pkg/apis/meta/v1" {
		return "metav1"
	}
	if n, ok := f.names[ip]; ok {
		return n
	}
	taken := map[string]bool{f.alias: true}
	for _, n := range starterNames {
		taken[n] = true
	}
	for _, n := range f.names {
		taken[n] = true
	}
	f.names[ip] = testImportName(ip, taken)
	return f.names[ip]
}

// specImport is a package the starter test imports for its spec.
type specImport struct{ Name, Path string }

// testImports are the packages the statements name, by path (a name
// spelled for a field left a TODO is not imported).
func (f *specFiller) testImports() []specImport {
	var out []specImport
	for ip, n := range f.names {
		if slices.ContainsFunc(f.stmts, func(s string) bool { return !strings.HasPrefix(s, "//") && strings.Contains(s, n+".") }) {
			out = append(out, specImport{Name: n, Path: ip})
		}
	}
	slices.SortFunc(out, func(a, b specImport) int { return strings.Compare(a.Path, b.Path) })
	return out
}
