package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// An object handed to a function of another package is followed by that
// package's own analysis: ParamsFact says which parameters of a function
// change at most the status of the object they are given, by the same
// rules as the uses between a patcher's anchor and its Flush
// (checkUses), references into the object included (chainChange). The
// analyzer exports facts for packages that reach controller-runtime's
// client and for the others kube.HoldsObjectHelpers selects (a dotted
// import path outside k8s.io and controller-runtime), which both drivers
// load from source. The rest (the standard library, klog, apimachinery,
// controller-runtime's own) have no facts: their calls are readsObject's,
// or keep the write.

// ParamsFact lists the parameters (by position, the receiver not counted:
// a method expression's receiver argument has none) of a function or
// method whose uses change at most the status of the object passed: they
// read it, assign or address its status, pass it to a function that does
// the same, or write it with the client. ReadOnly lists, for an exported
// one, the other parameters holding references (a slice, map or pointer:
// a reference into an object passed) that it only reads, by the rules of
// a reference into the object (followLocal): lws's
// disaggregatedset.ComputeRevision(roles).
//
// Recv is what a method does to its pointer receiver, when its body
// shows it: "reads" (it only reads it, as a reference into an object:
// karpenter's NodeClassReference.GroupKind), or "statusOnly" (a method
// of a kind that changes at most its status: CapacityBuffer.SetCondition,
// apimeta.SetStatusCondition(&cb.Status.Conditions, ...)). A call of it
// whose result holds no reference is then a read, or a status change.
//
// Const is the string constant a method without parameters returns when
// its body is that one return: a client.Patch's Type (trust-manager's
// ssa_client.ApplyPatch returns types.ApplyPatchType), named in the
// reason a write of such a patch stays.
//
// Why says, for an exported function's object parameter that is not
// StatusOnly, what its body does to it (file:line), and RecvWhy the same
// for a method's receiver that is neither "reads" nor "statusOnly": the
// reason a caller's write stays names the line that blocks (lws's
// GetPVCApplyConfiguration, karpenter's RuntimeValidate).
//
// Fields, Holds and StatusRefs are the summaries of an object held in a
// field of another value and reached through an interface (operatorpkg's
// status.ConditionSet): paramsheld.go.
//
// Returns lists the object parameters whose uses change at most the
// status but for references into the object the function returns
// (lws's GetPVCApplyConfiguration): a caller follows what it returns
// there (paramsreturns.go).
//
// Unsent and UnsentWhy are StatusOnly and Why of an exported function's
// object parameters that are not StatusOnly, judged as for a status
// subresource write with -nonstatus-unsent: a change outside the status
// and the identity (the spec, the labels), also through a reference the
// function returns or keeps, is left unsent and keeps nothing; a change
// of the identity (ObjectMeta replaced, the name) still keeps, and
// UnsentWhy names it (migrateunsent.go, unsentParam).
type ParamsFact struct {
	StatusOnly []int
	ReadOnly   []int
	Recv       string
	Const      string
	RecvField  string // Data's receiver field it returns (migrateapplybytes.go)
	Why        []ParamWhy
	RecvWhy    string
	Fields     []Held
	Holds      []Held
	StatusRefs bool
	Returns    []Returned
	HeldParams []Held
	Unsent     []int
	UnsentWhy  []ParamWhy
	// HeldStructs: a holder of a concrete type (paramsheldstructfacts.go).
	HeldStructs []HeldStruct
	// Reads: an exported helper's Get into an object it is given or
	// returns (originhelperfact.go).
	Reads []HelperRead
	// StatusOnlyIf: at most the status when the interface calls made on
	// it do, for the module's driver to judge (paramsimplsrecv.go).
	StatusOnlyIf []AssumedParam
	// Changes: the StatusOnly parameters whose status the function may
	// change (not only read), and RecvChanges the same of a "statusOnly"
	// receiver: the analyzer's model on SSA (lint/statuschange.go), for
	// a base taken after such a call (statusOnlyChange).
	Changes     []int
	RecvChanges bool
}

// ParamWhy is ParamsFact.Why of one parameter (by position).
type ParamWhy struct {
	Index int
	Why   string
}

// AFact marks ParamsFact as an analysis fact.
func (*ParamsFact) AFact() {}

func (f *ParamsFact) String() string {
	var parts []string
	if len(f.StatusOnly) > 0 {
		parts = append(parts, fmt.Sprintf("statusOnly%v", f.StatusOnly))
	}
	for _, a := range f.StatusOnlyIf {
		parts = append(parts, fmt.Sprintf("statusOnlyIf[%d:%d calls]", a.Index, len(a.Calls)))
	}
	if len(f.ReadOnly) > 0 {
		parts = append(parts, fmt.Sprintf("readOnly%v", f.ReadOnly))
	}
	if f.Recv != "" {
		parts = append(parts, "recv:"+f.Recv)
	}
	if f.Const != "" {
		parts = append(parts, "const:"+f.Const)
	}
	if f.RecvField != "" {
		parts = append(parts, "recvField:"+f.RecvField)
	}
	if len(f.Why) > 0 || f.RecvWhy != "" {
		parts = append(parts, "why")
	}
	if len(f.Unsent) > 0 {
		parts = append(parts, fmt.Sprintf("unsent%v", f.Unsent))
	}
	if f.StatusRefs {
		parts = append(parts, "statusRefs")
	}
	if len(f.Returns) > 0 {
		parts = append(parts, returnsText(f.Returns))
	}
	if h := heldText(f); h != "" {
		parts = append(parts, h)
	}
	parts = append(parts, heldParamsText(f)...)
	parts = append(parts, heldStructsText(f)...)
	parts = append(parts, readsText(f.Reads)...)
	return strings.Join(parts, " ")
}

// ExportParamFacts exports a ParamsFact for each function and method of the
// package with a parameter that may be an object (a pointer to a struct
// with ObjectMeta, or an interface with GetName) and changes at most its
// status.
func ExportParamFacts(pass *analysis.Pass) {
	decls := map[*types.Func]*ast.FuncDecl{}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func); fn != nil {
					decls[fn] = fd
				}
			}
		}
	}
	// A package that does not reach metav1 is read from export data by
	// the standalone command (internal/exportdata): no facts either way.
	readOnly := importedPkg(pass.Pkg, kube.MetaPkgPath) != nil
	insp := inspector.New(pass.Files)
	fields := heldFields(pass, decls, &migration{site: site{place: place{calls: calls{pass: pass, decls: decls, insp: insp}}}})
	for fn, hs := range fields {
		pass.ExportObjectFact(fn, &ParamsFact{Fields: hs})
	}
	recvs, recvWhys, holds := recvFacts(pass, decls, insp, readOnly)
	for _, f := range pass.Files {
		m := &migration{site: site{place: place{calls: calls{pass: pass, decls: decls, insp: insp}, file: f}}}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if fn == nil {
				continue
			}
			var fact ParamsFact
			fact.Recv, fact.RecvWhy = recvs[fn], recvWhys[fn]
			fact.Const = returnedConst(pass, fd)
			fact.RecvField = returnedRecvField(pass, fd)
			fact.Fields, fact.Holds = fields[fn], holds[fn]
			fact.StatusRefs = fact.Recv != "" && returnsStatusRefs(pass, fd)
			i := 0
			for _, field := range fd.Type.Params.List {
				if _, variadic := field.Type.(*ast.Ellipsis); variadic {
					// Only as a slice of holders (paramsheldiface.go).
					if p, _ := pass.TypesInfo.Defs[firstName(field.Names)].(*types.Var); p != nil && p.Name() != "_" {
						fact.HeldParams = append(fact.HeldParams, m.held().heldParams(fd, p, i)...)
					} else if i < fn.Signature().Params().Len() {
						fact.HeldParams = append(fact.HeldParams, unusedHeld(fd, fn.Signature().Params().At(i).Type(), i)...)
					}
					break
				}
				names := field.Names
				if len(names) == 0 {
					// An unnamed parameter has no uses: it reads nothing
					// and changes nothing, as one named _.
					if t := pass.TypesInfo.TypeOf(field.Type); t != nil && mayBeObject(t) {
						fact.StatusOnly = append(fact.StatusOnly, i)
					} else if t != nil {
						fact.HeldParams = append(fact.HeldParams, unusedHeld(fd, t, i)...)
						if readOnly && fn.Exported() && holdsRefs(t) {
							fact.ReadOnly = append(fact.ReadOnly, i)
						}
					}
					i++
					continue
				}
				for _, name := range names {
					p, _ := pass.TypesInfo.Defs[name].(*types.Var)
					if p != nil && name.Name != "_" && !mayBeObject(p.Type()) {
						fact.HeldParams = append(fact.HeldParams, m.held().heldParams(fd, p, i)...)
						fact.HeldStructs = append(fact.HeldStructs, heldStructs(m, fd, p, i)...)
					} else if p != nil && !mayBeObject(p.Type()) {
						fact.HeldParams = append(fact.HeldParams, unusedHeld(fd, p.Type(), i)...)
					}
					switch {
					case p == nil:
					case mayBeObject(p.Type()):
						why := ""
						if name.Name != "_" {
							why = assuming{m}.uses(&fact, fd, p, i)
						}
						if name.Name == "_" {
							fact.StatusOnly = append(fact.StatusOnly, i)
						} else if why == "" && m.returning.returned {
							fact.Returns, fact.Why = returnedParam(fact.Returns, fact.Why, i, m, fn.Exported())
						} else if why == "" && len(m.holding.out) > 0 {
							fact.Holds = append(fact.Holds, heldOf(i, m.holding.out)...)
						} else if why == "" {
							fact.StatusOnly = append(fact.StatusOnly, i)
						} else if fn.Exported() {
							fact.Why = append(fact.Why, ParamWhy{i, why})
						}
						if fn.Exported() && name.Name != "_" && !slices.Contains(fact.StatusOnly, i) {
							fact.Unsent, fact.UnsentWhy = assuming{m}.unsent(fd, p, i, fact.Unsent, fact.UnsentWhy)
						}
					case readOnly && fn.Exported() && holdsRefs(p.Type()):
						if name.Name == "_" || m.refs().followLocal(p) == "" {
							fact.ReadOnly = append(fact.ReadOnly, i)
						}
					}
					m.holding, m.returning = nil, nil
					i++
				}
			}
			if fn.Exported() {
				fact.Reads = helperReads(m.reads(), fd)
			}
			if len(fact.Fields) > 0 || len(fact.Holds) > 0 || len(fact.HeldParams) > 0 || fact.StatusRefs || len(fact.StatusOnly) > 0 || len(fact.ReadOnly) > 0 || fact.Recv != "" || fact.Const != "" || fact.RecvField != "" || fact.RecvWhy != "" || len(fact.Why) > 0 || len(fact.Returns) > 0 || len(fact.Unsent) > 0 || len(fact.UnsentWhy) > 0 || len(fact.HeldStructs) > 0 || len(fact.Reads) > 0 || len(fact.StatusOnlyIf) > 0 {
				pass.ExportObjectFact(fn, &fact)
			}
		}
	}
}

// importedStatusOnly reports whether argument arg of a call of fn, a
// function of another package, changes at most the status, by fn's fact:
// for a status subresource write whose changes outside the status are
// left unsent (m.unsent), at most the status and what is left unsent
// (ParamsFact.Unsent).
func (m checks) importedStatusOnly(fn *types.Func, arg int) bool {
	var fact ParamsFact
	if m.pass.ImportObjectFact(fn.Origin(), &fact) {
		return slices.Contains(fact.StatusOnly, arg) || m.unsent && slices.Contains(fact.Unsent, arg) || m.assumedStatusOnly(&fact, arg)
	}
	return false
}

// importedReads reports whether call, of a function of another package,
// only reads the reference e it is given, by the function's ParamsFact
// (ReadOnly): not a method expression nor a variadic argument.
func (si readers) importedReads(call *ast.CallExpr, e ast.Expr) bool {
	fn := kube.CalledFunc(si.pass, call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg() == si.pass.Pkg || call.Ellipsis.IsValid() {
		return false
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s := si.pass.TypesInfo.Selections[sel]; s != nil && s.Kind() == types.MethodExpr {
			return false
		}
	}
	arg := slices.Index(call.Args, e)
	var fact ParamsFact
	return arg >= 0 && si.pass.ImportObjectFact(fn.Origin(), &fact) && slices.Contains(fact.ReadOnly, arg)
}

// runtimePkgPath is apimachinery's runtime package, of runtime.Object.
const runtimePkgPath = "k8s.io/apimachinery/pkg/runtime"

// mayBeObject reports whether a value of type t may be a Kubernetes object
// handed on: a pointer to a struct with an ObjectMeta field of
// metav1.ObjectMeta, or an interface with a GetName method that is, or
// embeds, an interface of metav1 or controller-runtime (metav1.Object,
// client.Object; a type parameter by its constraint), or apimachinery's
// runtime.Object, which every kind implements. Its types come from
// kube.MetaPkgPath, directly or through controller-runtime, so only a
// package that reaches it has facts: the export-data driver loads just
// those from source, and both drivers give the same facts. A narrower
// interface of one's own (GetName alone) has none: the write is kept.
func mayBeObject(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		s, ok := u.Elem().Underlying().(*types.Struct)
		if !ok {
			return false
		}
		for i := 0; i < s.NumFields(); i++ {
			if f := s.Field(i); f.Name() == "ObjectMeta" && declaredIn(f.Type(), kube.MetaPkgPath) {
				return true
			}
		}
	case *types.Interface:
		if declaredIn(t, runtimePkgPath) && kube.NamedOf(t).Obj().Name() == "Object" {
			return true // every kind is one: operatorpkg's object.GVK(o runtime.Object)
		}
		for i := 0; i < u.NumMethods(); i++ {
			if u.Method(i).Name() == "GetName" {
				return kubeInterface(t, 0)
			}
		}
	}
	return false
}

// kubeInterface reports whether interface t is declared in metav1 or
// controller-runtime, or embeds one that is.
func kubeInterface(t types.Type, depth int) bool {
	if depth > kube.MaxDepth {
		return false
	}
	if tp, ok := types.Unalias(t).(*types.TypeParam); ok {
		t = tp.Constraint()
	}
	if declaredIn(t, kube.MetaPkgPath) || declaredIn(t, "sigs.k8s.io/controller-runtime/") {
		return true
	}
	iface, ok := t.Underlying().(*types.Interface)
	if !ok {
		return false
	}
	for i := 0; i < iface.NumEmbeddeds(); i++ {
		if kubeInterface(iface.EmbeddedType(i), depth+1) {
			return true
		}
	}
	return false
}

// declaredIn reports whether t is a named type of the package path, or of
// a package under it when path ends in a slash.
func declaredIn(t types.Type, path string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	p := n.Obj().Pkg().Path()
	if strings.HasSuffix(path, "/") {
		return strings.HasPrefix(p, path)
	}
	return p == path
}
