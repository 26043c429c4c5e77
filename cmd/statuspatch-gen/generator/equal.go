package generator

import (
	"fmt"
	"go/types"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/tools/go/types/typeutil"
)

// equalFuncs writes the typed equality functions of one generated file:
// the generated status diff compares a nested status field with them
// instead of reflect.DeepEqual, so a no-op Flush does not walk the status
// through reflection. Each function is reflect.DeepEqual for its type,
// written out down the type as deepcopy-gen writes out copies: == for
// strings, numbers and bools, field by field for structs, element by
// element for slices, arrays and maps, with nil and empty kept apart as
// DeepEqual keeps them. A type whose values it cannot reach field by field
// (unexported fields, an interface, a type the file cannot name, the way
// back into a recursive type) is compared with == when that is exact and
// patcher.DeepEqual otherwise. Being DeepEqual, the functions leave the
// generated diff's result, and its patch, as they were.
type equalFuncs struct {
	local     string // the generated file's package path
	qualifier types.Qualifier
	deepEqual string       // patcher.DeepEqual, qualified for the file
	byType    typeutil.Map // types.Type -> *equalFunc
	taken     map[string]bool
	funcs     []*equalFunc
}

type equalFunc struct {
	name, src string
	done      bool // its body is written: a use inside the body is recursion
}

func newEqualFuncs(local string, qualifier types.Qualifier, patcher string, taken []string) *equalFuncs {
	e := &equalFuncs{local: local, qualifier: qualifier, deepEqual: patcher + ".DeepEqual", taken: make(map[string]bool)}
	for _, name := range taken {
		e.taken[name] = true
	}
	return e
}

// changed is a Go expression, true when the values x and y (addressable
// expressions of type t) are not reflect.DeepEqual.
func (e *equalFuncs) changed(t types.Type, x, y string) string {
	if isBasic(t) {
		return x + " != " + y
	}
	return "!" + e.equal(t, x, y)
}

// equal is a Go expression, true when the values x and y (addressable
// expressions of type t) are reflect.DeepEqual.
func (e *equalFuncs) equal(t types.Type, x, y string) string {
	t = types.Unalias(t)
	if isBasic(t) {
		return x + " == " + y
	}
	f, known := e.byType.At(t).(*equalFunc)
	if (known && !f.done) || e.opaque(t) {
		deep := e.deepEqual + "(" + addr(x) + ", " + addr(y) + ")"
		if strictlyComparable(t) {
			return "(" + x + " == " + y + " || " + deep + ")"
		}
		return deep
	}
	return e.function(t) + "(" + addr(x) + ", " + addr(y) + ")"
}

// addr is the address of the addressable expression x.
func addr(x string) string {
	if strings.HasPrefix(x, "*") {
		return x[1:]
	}
	return "&" + x
}

// function returns the name of t's equality function, writing it first.
func (e *equalFuncs) function(t types.Type) string {
	if f, ok := e.byType.At(t).(*equalFunc); ok {
		return f.name
	}
	f := &equalFunc{name: e.newName("equal" + e.typeName(t))}
	e.byType.Set(t, f)
	e.funcs = append(e.funcs, f)
	f.src = fmt.Sprintf("// %[1]s reports whether *a and *b are reflect.DeepEqual.\nfunc %[1]s(a, b *%[2]s) bool {\n%[3]s}\n",
		f.name, types.TypeString(t, e.qualifier), e.body(t))
	f.done = true
	return f.name
}

func (e *equalFuncs) body(t types.Type) string {
	switch u := t.Underlying().(type) {
	case *types.Struct:
		var conds []string
		for f := range fieldsOf(u) {
			conds = append(conds, e.equal(f.Type(), "a."+f.Name(), "b."+f.Name()))
		}
		if len(conds) == 0 {
			return "\treturn true\n"
		}
		return "\treturn " + strings.Join(conds, " &&\n\t\t") + "\n"
	case *types.Pointer:
		return "\tif *a == *b {\n\t\treturn true\n\t}\n" +
			"\treturn *a != nil && *b != nil && " + e.equal(u.Elem(), "**a", "**b") + "\n"
	case *types.Slice:
		return "\tx, y := *a, *b\n" +
			"\tif (x == nil) != (y == nil) || len(x) != len(y) {\n\t\treturn false\n\t}\n" +
			"\tfor i := range x {\n\t\tif " + e.changed(u.Elem(), "x[i]", "y[i]") + " {\n\t\t\treturn false\n\t\t}\n\t}\n" +
			"\treturn true\n"
	case *types.Array:
		return "\tfor i := range a {\n\t\tif " + e.changed(u.Elem(), "a[i]", "b[i]") + " {\n\t\t\treturn false\n\t\t}\n\t}\n" +
			"\treturn true\n"
	case *types.Map:
		return "\tx, y := *a, *b\n" +
			"\tif (x == nil) != (y == nil) || len(x) != len(y) {\n\t\treturn false\n\t}\n" +
			"\tfor k, xv := range x {\n\t\tyv, ok := y[k]\n" +
			"\t\tif !ok || " + e.changed(u.Elem(), "xv", "yv") + " {\n\t\t\treturn false\n\t\t}\n\t}\n" +
			"\treturn true\n"
	}
	return "\treturn " + e.deepEqual + "(a, b)\n" // not reached: opaque types get no function
}

// opaque reports whether t is compared as a whole (== or DeepEqual)
// rather than with a generated function.
func (e *equalFuncs) opaque(t types.Type) bool {
	if !e.nameable(t) {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		for f := range fieldsOf(u) {
			if !e.accessible(f) {
				return true
			}
		}
		return false
	case *types.Pointer, *types.Slice, *types.Array, *types.Map:
		return false
	}
	return true
}

// accessible reports whether the generated file can select field f.
func (e *equalFuncs) accessible(f *types.Var) bool {
	return f.Name() != "_" && (f.Exported() || f.Pkg() == nil || f.Pkg().Path() == e.local)
}

// nameable reports whether the generated file can write type t.
func (e *equalFuncs) nameable(t types.Type) bool {
	switch u := types.Unalias(t).(type) {
	case *types.Basic: // not Invalid: a type from a package the loader did not type-check
		return u.Kind() != types.Invalid && u.Kind() != types.UnsafePointer && u.Info()&types.IsUntyped == 0
	case *types.Named:
		obj := u.Obj()
		if obj.Pkg() == nil || (!obj.Exported() && obj.Pkg().Path() != e.local) {
			return false
		}
		for a := range u.TypeArgs().Types() {
			if !e.nameable(a) {
				return false
			}
		}
		return true
	case *types.Pointer:
		return e.nameable(u.Elem())
	case *types.Slice:
		return e.nameable(u.Elem())
	case *types.Array:
		return e.nameable(u.Elem())
	case *types.Map:
		return e.nameable(u.Key()) && e.nameable(u.Elem())
	case *types.Struct:
		for f := range fieldsOf(u) {
			if !e.accessible(f) || !e.nameable(f.Type()) {
				return false
			}
		}
		return true
	}
	return false
}

// strictlyComparable reports whether == on t never panics (no interface
// inside) and so, when true, implies reflect.DeepEqual.
func strictlyComparable(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() != types.Invalid
	case *types.Pointer, *types.Chan:
		return true
	case *types.Array:
		return strictlyComparable(u.Elem())
	case *types.Struct:
		for f := range fieldsOf(u) {
			if !strictlyComparable(f.Type()) {
				return false
			}
		}
		return true
	}
	return false
}

// typeName spells t for a function name: appsv1.DeploymentCondition is
// Appsv1DeploymentCondition, []*Endpoint SlicePtrEndpoint.
func (e *equalFuncs) typeName(t types.Type) string {
	switch u := types.Unalias(t).(type) {
	case *types.Named:
		pkg := ""
		if u.Obj().Pkg() != nil {
			pkg = e.qualifier(u.Obj().Pkg())
		}
		return upperFirst(pkg) + upperFirst(u.Obj().Name())
	case *types.Basic:
		return upperFirst(u.Name())
	case *types.Pointer:
		return "Ptr" + e.typeName(u.Elem())
	case *types.Slice:
		return "Slice" + e.typeName(u.Elem())
	case *types.Array:
		return "Array" + strconv.FormatInt(u.Len(), 10) + e.typeName(u.Elem())
	case *types.Map:
		return "Map" + e.typeName(u.Key()) + e.typeName(u.Elem())
	}
	return "Struct"
}

func upperFirst(s string) string {
	for i, r := range s {
		return string(unicode.ToUpper(r)) + s[i+len(string(r)):]
	}
	return s
}

// newName returns name, or name with the first free number appended.
func (e *equalFuncs) newName(name string) string {
	n := name
	for i := 2; e.taken[n]; i++ {
		n = name + strconv.Itoa(i)
	}
	e.taken[n] = true
	return n
}

// sources returns the functions' source, sorted by name.
func (e *equalFuncs) sources() []string {
	sort.Slice(e.funcs, func(i, j int) bool { return e.funcs[i].name < e.funcs[j].name })
	src := make([]string, len(e.funcs))
	for i, f := range e.funcs {
		src[i] = f.src
	}
	return src
}
