package migrate

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// What only reads the object or a reference into it: methods (getters,
// DeepCopy, a timestamp's), functions by package and name, and the
// encoders and converters that copy what they are given (migratemarshal.go).
// chainChange (migratechange.go) asks them before it counts a use as a
// change.

// leavesMethod reports whether a method called on the object, or on a
// chain from it, changes at most the status (leavesFunc).
func leavesMethod(pass *analysis.Pass, s *types.Selection) bool {
	fn, ok := s.Obj().(*types.Func)
	return ok && leavesFunc(pass, fn)
}

// leavesFunc reports whether the method fn only reads its receiver or,
// a kind's method, changes at most its status (ParamsFact.Recv
// "statusOnly": CapacityBuffer.SetCondition): what the checks of a
// change of more than the status ask (chainChange, held.resolve).
func leavesFunc(pass *analysis.Pass, fn *types.Func) bool {
	var fact ParamsFact
	if pass.ImportObjectFact(fn.Origin(), &fact) && fact.Recv == "statusOnly" {
		return true
	}
	return readsFunc(pass, fn)
}

// readsMethod reports whether a method called on the object, or on a
// chain from it, only reads (readsFunc).
func readsMethod(pass *analysis.Pass, s *types.Selection) bool {
	fn, ok := s.Obj().(*types.Func)
	return ok && readsFunc(pass, fn)
}

// readsFunc reports whether the method fn only reads its receiver, by
// what is known of its body, never by its name alone: its ParamsFact
// (Recv "reads": its body reads it; "statusOnly" or RecvWhy: it
// changes it), DeepCopy, timeReads' methods, a getter (Get...) of
// apimachinery's and controller-runtime's object interfaces and types
// (trustedGetters), readerMethods' entries, or a method of a value
// receiver without references (it gets a copy). A kind's GetFoo whose
// body changes the spec is no reader (issue 80). A caller that needs
// the object unchanged (onlyRead: a decision run again in Retry) asks
// this; one that needs only its non-status parts unchanged asks
// leavesFunc.
func readsFunc(pass *analysis.Pass, fn *types.Func) bool {
	switch fn.Name() {
	case "DeepCopy", "DeepCopyObject", "DeepCopyInto":
		// controller-gen's, which copy out (their bodies hand the
		// receiver to DeepCopyInto, which no fact follows).
		return true
	}
	var fact ParamsFact
	if pass.ImportObjectFact(fn.Origin(), &fact) {
		switch {
		case fact.Recv == "reads":
			return true
		case fact.Recv != "" || fact.RecvWhy != "":
			return false
		}
	}
	if strings.HasPrefix(fn.Name(), "Get") && trustedGetter(fn) {
		return true
	}
	if timeReads(fn) {
		return true
	}
	recv := fn.Signature().Recv()
	if recv == nil {
		return false
	}
	if n := kube.NamedOf(recv.Type()); n != nil && n.Obj().Pkg() != nil && readerMethods[n.Obj().Pkg().Path()+"."+n.Obj().Name()][fn.Name()] {
		return true
	}
	_, ptr := recv.Type().Underlying().(*types.Pointer)
	return !ptr && !holdsRefs(recv.Type())
}

// trustedGetters are the packages whose Get... methods only read their
// receiver: metav1.ObjectMeta's, TypeMeta's, ListMeta's and the
// metav1.Object, runtime.Object and client.Object interfaces' (checked
// against k8s.io/apimachinery v0.34's meta.go, types.go, interfaces.go),
// unstructured.Unstructured's (each copies out of its map: its Get...
// return what NestedFieldCopy and friends copy) and
// controller-runtime's client.Object.
var trustedGetters = []string{
	"k8s.io/apimachinery/pkg/apis/meta/v1",
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured",
	"k8s.io/apimachinery/pkg/runtime",
	"k8s.io/apimachinery/pkg/runtime/schema",
	"sigs.k8s.io/controller-runtime/pkg/client",
}

// trustedGetter reports whether fn, named Get..., is a method of a
// trustedGetters package (an interface's method, or a promoted one, by
// the package that declares it).
func trustedGetter(fn *types.Func) bool {
	return fn.Pkg() != nil && slices.Contains(trustedGetters, fn.Pkg().Path())
}

// endsRead reports whether the value a reading method returns leaves the
// object: a copy (DeepCopy...), or a result without references. Else (a
// getter of a map, slice or pointer: GetLabels, GetFinalizers) what it
// returns is the object's, and its uses are checked in turn.
func endsRead(s *types.Selection) bool {
	fn := s.Obj().(*types.Func)
	if strings.HasPrefix(fn.Name(), "DeepCopy") {
		return true
	}
	return !holdsRefs(fn.Signature().Results())
}

// timeReads reports whether fn is a method of a timestamp that reads it:
// metav1.Time's and MicroTime's comparisons, and the standard library's
// time.Time methods of a value receiver.
func timeReads(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	n := kube.NamedOf(recv.Type())
	if n == nil || n.Obj().Pkg() == nil {
		return false
	}
	switch n.Obj().Pkg().Path() {
	case "time":
		_, ptr := recv.Type().(*types.Pointer)
		return n.Obj().Name() == "Time" && !ptr && !strings.HasPrefix(fn.Name(), "Unmarshal") && !strings.HasPrefix(fn.Name(), "Gob")
	case "k8s.io/apimachinery/pkg/apis/meta/v1":
		switch fn.Name() {
		case "IsZero", "Before", "BeforeTime", "Equal", "Unix", "Rfc3339Copy":
			return n.Obj().Name() == "Time" || n.Obj().Name() == "MicroTime"
		}
	}
	return false
}

// readerMethods are methods, by package path and type, of packages whose
// bodies -fix does not analyse, that only read their receiver: each
// checked against the package's source at the version named.
var readerMethods = map[string]map[string]bool{
	// k8s.io/apimachinery v0.36.1 (karpenter's), pkg/api/resource
	// quantity.go: each reads q.i (int64Amount's value methods) or
	// q.d.Dec (scaledValue divides into pooled big.Ints, not into q's).
	// Not listed: Cmp (q.AsDec() promotes q in place), AsDec, ToDec,
	// String (caches q.s), RoundUp, Add, Sub, Neg, Set...: they change q.
	"k8s.io/apimachinery/pkg/api/resource.Quantity": {
		"Value": true, "MilliValue": true, "ScaledValue": true, "IsZero": true, "Sign": true,
		"AsInt64": true, "AsApproximateFloat64": true, "CmpInt64": true,
	},
}

// copyReaders are generic functions, by package and name, of packages
// whose bodies -fix does not analyse, that read the collections they are
// given and hand their callbacks, and return, copies of the elements:
// read when no element holds a reference (readsCopies). Each checked
// against github.com/samber/lo v1.53.0's source (karpenter's):
// slice.go, find.go, intersect.go, map.go, type_manipulation.go.
var copyReaders = map[string]map[string]bool{
	"github.com/samber/lo": {
		"Filter": true, "FilterReject": true, "Reject": true, "Map": true, "Uniq": true,
		"Find": true, "IndexOf": true, "Max": true, "Min": true, "FromPtr": true,
		"Contains": true, "ContainsBy": true, "Some": true, "SomeBy": true, "Every": true, "EveryBy": true,
		"Count": true, "CountBy": true, "Keys": true, "Values": true,
	},
}

// readsCopies reports whether each argument of call is a function, or a
// value, pointer, slice, array or map whose elements (and keys) hold no
// reference: what copyReaders' functions copy from it shares nothing.
func readsCopies(info *types.Info, call *ast.CallExpr) bool {
	for _, a := range call.Args {
		t := info.TypeOf(a)
		if t == nil {
			return false
		}
		switch u := t.Underlying().(type) {
		case *types.Signature:
		case *types.Pointer:
			if holdsRefs(u.Elem()) {
				return false
			}
		case *types.Slice:
			if holdsRefs(u.Elem()) {
				return false
			}
		case *types.Map:
			if holdsRefs(u.Key()) || holdsRefs(u.Elem()) {
				return false
			}
		default:
			if holdsRefs(t) {
				return false
			}
		}
	}
	return true
}

// readOptionPkgs are the packages whose types a reference into the object
// is converted to, to be read: client.MatchingLabels, labels.Set.
var readOptionPkgs = map[string]bool{
	kube.ClientPkgPath:               true,
	"k8s.io/apimachinery/pkg/labels": true,
}

// refReaders are functions that only read the references they are given,
// by package and name.
var refReaders = map[string]map[string]bool{
	"reflect":                        {"DeepEqual": true},
	"slices":                         {"Contains": true, "Equal": true, "Index": true},
	"maps":                           {"Equal": true},
	"k8s.io/utils/ptr":               {"Deref": true, "Equal": true},
	"k8s.io/apimachinery/pkg/labels": {"SelectorFromSet": true, "SelectorFromValidatedSet": true},
	"k8s.io/apimachinery/pkg/apis/meta/v1": {
		"LabelSelectorAsSelector": true, "LabelSelectorAsMap": true, "FormatLabelSelector": true,
	},
	// An IntOrString's value, by pointer (lws's rolling update).
	"k8s.io/apimachinery/pkg/util/intstr": {"GetScaledValueFromIntOrPercent": true, "GetValueFromIntOrPercent": true},
	// The patch's schema, by the type of its dataStruct (lws's
	// revision.ApplyRevision).
	"k8s.io/apimachinery/pkg/util/strategicpatch": {"StrategicMergePatch": true},
	// equality.Semantic.DeepEqual, a method of Equalities.
	"k8s.io/apimachinery/third_party/forked/golang/reflect": {"DeepEqual": true, "DeepDerivative": true},
}

// readsRefs reports whether call only reads the references it is given:
// len, cap, or one of refReaders' functions (or k8s.io/utils/pointer's
// ...Deref and ...Equal).
func (si readers) readsRefs(call *ast.CallExpr) bool {
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := si.pass.TypesInfo.Uses[id].(*types.Builtin); ok {
			return b.Name() == "len" || b.Name() == "cap"
		}
	}
	if si.convertsToUnstructured(call) {
		return true
	}
	fn := kube.CalledFunc(si.pass, call)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	if fn.Pkg().Path() == "k8s.io/utils/pointer" {
		return strings.HasSuffix(fn.Name(), "Deref") || strings.HasSuffix(fn.Name(), "Equal")
	}
	if marshalers[fn.Pkg().Path()][fn.Name()] {
		return si.marshalReads(call)
	}
	if printers(fn) {
		return si.printReads(call)
	}
	if si.setterCopies(call, fn) {
		return true // an apply configuration's With* (readersapply.go)
	}
	if copyReaders[fn.Pkg().Path()][fn.Name()] {
		return readsCopies(si.pass.TypesInfo, call)
	}
	return refReaders[fn.Pkg().Path()][fn.Name()]
}

// copiedFrom reports whether call is maps.Copy(dst, e) of a map whose keys
// and values hold no references: its entries are copied as values, and
// e is only read (lws's mergeMetadata of the object's labels).
func (si readers) copiedFrom(call *ast.CallExpr, e ast.Expr) bool {
	fn := kube.CalledFunc(si.pass, call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "maps" || fn.Name() != "Copy" || len(call.Args) != 2 || call.Args[1] != e {
		return false
	}
	m, ok := si.pass.TypesInfo.TypeOf(e).Underlying().(*types.Map)
	return ok && !holdsRefs(m.Key()) && !holdsRefs(m.Elem())
}
