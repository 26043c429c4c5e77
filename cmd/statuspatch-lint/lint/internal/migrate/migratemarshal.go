package migrate

import (
	"go/ast"
	"go/types"
	"reflect"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// marshalers are the functions that encode what they are given to JSON
// (sigs.k8s.io/yaml's Marshal through encoding/json): they read a
// reference into the object, unless a type they meet has a method
// encoding/json calls that may change it (marshalReads).
var marshalers = map[string]map[string]bool{
	"encoding/json":    {"Marshal": true, "MarshalIndent": true},
	"sigs.k8s.io/yaml": {"Marshal": true},
}

// marshalReads reports whether encoding call's arguments only reads them:
// no type reachable from an argument's (through fields, elements and
// pointers, not below a type with a MarshalJSON or MarshalText of a value
// receiver, which encoding/json calls instead of going in) has such a
// method of a pointer receiver, which encoding/json calls on the
// object's own value when it is addressable, nor is an interface, whose
// dynamic value is not seen.
func (si readers) marshalReads(call *ast.CallExpr) bool {
	seen := map[types.Type]bool{}
	for _, a := range call.Args {
		if !marshalSafe(si.pass.TypesInfo.TypeOf(a), seen) {
			return false
		}
	}
	return true
}

// marshalSafe is marshalReads for one type.
func marshalSafe(t types.Type, seen map[types.Type]bool) bool {
	if t == nil {
		return false
	}
	if seen[t] {
		return true
	}
	seen[t] = true
	if _, ok := types.Unalias(t).(*types.Named); ok {
		for _, name := range []string{"MarshalJSON", "MarshalText"} {
			o, _, _ := types.LookupFieldOrMethod(types.NewPointer(t), true, nil, name)
			fn, ok := o.(*types.Func)
			if !ok {
				continue
			}
			if _, ptr := fn.Signature().Recv().Type().Underlying().(*types.Pointer); ptr {
				return false
			}
			return true // a value receiver: encoding/json calls it on a copy, not going in
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() != types.UnsafePointer
	case *types.Pointer:
		return marshalSafe(u.Elem(), seen)
	case *types.Slice:
		return marshalSafe(u.Elem(), seen)
	case *types.Array:
		return marshalSafe(u.Elem(), seen)
	case *types.Map:
		return marshalSafe(u.Key(), seen) && marshalSafe(u.Elem(), seen)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if reflect.StructTag(u.Tag(i)).Get("json") == "-" {
				continue // encoding/json skips it
			}
			if !marshalSafe(u.Field(i).Type(), seen) {
				return false
			}
		}
		return true
	}
	return false // interfaces; channels and functions, which json.Marshal refuses
}

// unstructuredPath is apimachinery's unstructured package, whose
// UnstructuredJSONScheme encodes a typed object with encoding/json.
const unstructuredPath = "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

// encodesAsJSON reports whether call is
// unstructured.UnstructuredJSONScheme.Encode(obj, w) of an object its
// Encode only reads: no runtime.CacheableObject (whose CacheEncode it
// calls instead), and marshalSafe (its doEncode is
// json.NewEncoder(w).Encode(obj) for a typed object, apimachinery's
// unstructured/helpers.go).
func (si readers) encodesAsJSON(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Encode" || len(call.Args) != 2 {
		return false
	}
	x, ok := ast.Unparen(sel.X).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	v, ok := si.pass.TypesInfo.Uses[x.Sel].(*types.Var)
	if !ok || v.Pkg() == nil || v.Pkg().Path() != unstructuredPath || v.Name() != "UnstructuredJSONScheme" {
		return false
	}
	t := si.pass.TypesInfo.TypeOf(call.Args[0])
	if o, _, _ := types.LookupFieldOrMethod(t, true, nil, "CacheEncode"); o != nil {
		return false
	}
	return marshalSafe(t, map[types.Type]bool{})
}

// runtimePath is apimachinery's runtime package, whose
// DefaultUnstructuredConverter turns a typed object into a map.
const runtimePath = "k8s.io/apimachinery/pkg/runtime"

// convertsToUnstructured reports whether call is
// runtime.DefaultUnstructuredConverter.ToUnstructured(x) of a value it only
// reads: not an Unstructured (whose content it returns as it is), and
// marshalSafe (its toUnstructured walks the value by reflection into new
// maps and slices, calling a MarshalJSON it meets as encoding/json would:
// apimachinery's runtime/converter.go).
func (si readers) convertsToUnstructured(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "ToUnstructured" || len(call.Args) != 1 {
		return false
	}
	x, ok := ast.Unparen(sel.X).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	v, ok := si.pass.TypesInfo.Uses[x.Sel].(*types.Var)
	if !ok || v.Pkg() == nil || v.Pkg().Path() != runtimePath || v.Name() != "DefaultUnstructuredConverter" {
		return false
	}
	t := si.pass.TypesInfo.TypeOf(call.Args[0])
	if o, _, _ := types.LookupFieldOrMethod(t, true, nil, "UnstructuredContent"); o != nil {
		return false
	}
	return marshalSafe(t, map[types.Type]bool{})
}

// printers reports whether fn logs or formats its arguments: fmt's and
// log's Print, Sprint, Fprint and Errorf families, klog's Info, Warning
// and Error families, a logr.Logger's (or klog.Verbose's) Info and Error.
// They read what they are given, calling only the methods printSafe
// looks for.
func printers(fn *types.Func) bool {
	name := fn.Name()
	switch fn.Pkg().Path() {
	case "fmt":
		return strings.HasPrefix(name, "Print") || strings.HasPrefix(name, "Sprint") || strings.HasPrefix(name, "Fprint") || name == "Errorf"
	case "log":
		return strings.HasPrefix(name, "Print")
	case "k8s.io/klog/v2", "k8s.io/klog":
		return strings.HasPrefix(name, "Info") || strings.HasPrefix(name, "Warning") || strings.HasPrefix(name, "Error")
	case "github.com/go-logr/logr":
		return fn.Signature().Recv() != nil && (name == "Info" || name == "Error")
	}
	return false
}

// printMethods are the methods a printer calls on a value it meets: fmt's
// Formatter, Stringer, GoStringer and error, logr's Marshaler, and the
// JSON encoders of structured loggers.
var printMethods = []string{"Format", "String", "GoString", "Error", "MarshalLog", "MarshalJSON", "MarshalText"}

// printReads reports whether a printer's call only reads its arguments:
// no type reachable from one (through fields, elements and pointers) has
// one of printMethods with a pointer receiver, which may change the
// object, nor is an interface, whose dynamic value is not seen. A *string
// logged is read.
func (si readers) printReads(call *ast.CallExpr) bool {
	seen := map[types.Type]bool{}
	var typeOnly map[ast.Expr]bool
	if fn := kube.CalledFunc(si.pass, call); fn != nil {
		typeOnly = typeOnlyArgs(si.pass.TypesInfo, fn, call)
	}
	for _, a := range call.Args {
		if typeOnly[a] {
			continue // printed with %T: its type only (migrateprintverbs.go)
		}
		t := si.pass.TypesInfo.TypeOf(a)
		if b, ok := t.(*types.Basic); ok && b.Kind() == types.UntypedNil {
			continue
		}
		if !printSafe(t, seen) {
			return false
		}
	}
	return true
}

// printSafe is printReads for one type.
func printSafe(t types.Type, seen map[types.Type]bool) bool {
	if t == nil {
		return false
	}
	if seen[t] {
		return true
	}
	seen[t] = true
	if _, ok := types.Unalias(t).(*types.Named); ok {
		for _, name := range printMethods {
			o, _, _ := types.LookupFieldOrMethod(types.NewPointer(t), true, nil, name)
			if fn, ok := o.(*types.Func); ok {
				if _, ptr := fn.Signature().Recv().Type().Underlying().(*types.Pointer); ptr {
					return false
				}
			}
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() != types.UnsafePointer
	case *types.Pointer:
		return printSafe(u.Elem(), seen)
	case *types.Slice:
		return printSafe(u.Elem(), seen)
	case *types.Array:
		return printSafe(u.Elem(), seen)
	case *types.Map:
		return printSafe(u.Key(), seen) && printSafe(u.Elem(), seen)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if !printSafe(u.Field(i).Type(), seen) {
				return false
			}
		}
		return true
	case *types.Interface:
		// An error beside the reference (logr's Error(err, ...)) is not
		// the object's; any other interface's dynamic value is not seen.
		return types.Identical(t, types.Universe.Lookup("error").Type())
	}
	return false
}
