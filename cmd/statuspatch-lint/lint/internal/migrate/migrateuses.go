package migrate

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// Calls that may take the object between the patcher's anchor and its
// Flush, by package and name, with the argument the object may be (any
// argument: anyArg): they read it (an owner reference, an event's object,
// a key, a log reference). Kubernetes' and controller-runtime's packages
// that do not reach the client have no ParamsFact (the analyzer exports
// none for k8s.io and controller-runtime paths, nor the standard
// library's: kube.HoldsObjectHelpers), so the common readers among them
// are listed here.
var readsObject = map[string]map[string]int{
	"sigs.k8s.io/controller-runtime": {"SetControllerReference": 0},
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil": {
		"SetControllerReference": 0, "SetOwnerReference": 0, "HasControllerReference": 0, "ContainsFinalizer": 0,
	},
	kube.ClientPkgPath:                     {"ObjectKeyFromObject": 0},
	kube.ClientPkgPath + "/apiutil":        {"GVKForObject": 0},
	"k8s.io/klog/v2":                       {"KObj": 0},
	"k8s.io/apimachinery/pkg/apis/meta/v1": {"IsControlledBy": anyArg, "GetControllerOf": 0, "GetControllerOfNoCopy": 0, "NewControllerRef": 0},
}

const anyArg = -1

// readsObjectArg reports whether fn is one of readsObject's and its
// argument i one it reads.
func readsObjectArg(fn *types.Func, i int) bool {
	if fn.Pkg() == nil {
		return false
	}
	at, ok := readsObject[fn.Pkg().Path()][fn.Name()]
	return ok && (at == i || at == anyArg)
}

// eventRecorders are the packages of client-go's EventRecorder interfaces
// (tools/events' is an alias of tools/internal/events' since v0.34).
var eventRecorders = map[string]bool{
	"k8s.io/client-go/tools/record":          true,
	"k8s.io/client-go/tools/events":          true,
	"k8s.io/client-go/tools/internal/events": true,
}

var changesFinalizers = map[string]bool{"AddFinalizer": true, "RemoveFinalizer": true}

const controllerutilPath = "sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

// allowedCall reports whether call, which passes id (a use of v) as an
// argument, keeps a migrated write exact:
//   - a status write of the object that moves onto a patcher too;
//   - c.Get(ctx, key, obj): a re-read; the patcher's Flush re-bases on it
//     only when it is exactly the state its base or the caller's own write
//     left, and otherwise returns a Conflict (patcher.Flush, syncBase);
//   - c.Update(ctx, obj) or c.Patch(ctx, obj, ...): a write of the object
//     outside its status, which the patcher re-bases on the same way;
//   - c.Delete(ctx, obj, ...): controller-runtime's clients (typed,
//     unstructured, metadata, fake, v0.22.1) read the object's key and
//     decode nothing into it (jobset's TTL deletes the JobSet, then its
//     status is written; with a finalizer it is still there);
//   - readsObject's functions, EventRecorder methods (they read the object),
//     readsRefs' (json.Marshal, strategicpatch.StrategicMergePatch's
//     schema, ...) and UnstructuredJSONScheme.Encode (encodesAsJSON);
//   - controllerutil.AddFinalizer or RemoveFinalizer when a later statement
//     of the same block writes the object with c.Update or c.Patch (else
//     Flush would meet an unsaved change outside the status).
func (m checks) allowedCall(call *ast.CallExpr, id ast.Expr, v *types.Var) bool {
	if m.moved[call] {
		return true
	}
	arg := slices.IndexFunc(call.Args, func(a ast.Expr) bool { return a == id })
	if arg < 0 || call.Ellipsis.IsValid() && arg == len(call.Args)-1 {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	if verb := m.clientWrite(call); verb != "" {
		return verb == "Get" && arg == 2 || verb != "Get" && arg == 1
	}
	if arg == 0 && m.readers().encodesAsJSON(call) || m.readers().readsRefs(call) {
		return true // encoded, or read as a reference is (migratechange.go)
	}
	if s := m.pass.TypesInfo.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
		n := kube.NamedOf(s.Recv())
		return n != nil && n.Obj().Pkg() != nil && eventRecorders[n.Obj().Pkg().Path()] &&
			(n.Obj().Name() == "EventRecorder" || n.Obj().Name() == "EventRecorderLogger")
	}
	obj := m.pass.TypesInfo.Uses[sel.Sel]
	if obj == nil || obj.Pkg() == nil {
		return false
	}
	if i, ok := readsObject[obj.Pkg().Path()][obj.Name()]; ok {
		return i == arg || i == anyArg
	}
	if obj.Pkg().Path() == controllerutilPath && changesFinalizers[obj.Name()] && arg == 0 {
		return m.savedLater(call, v)
	}
	return false
}
