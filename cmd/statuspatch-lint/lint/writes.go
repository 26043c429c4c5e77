package lint

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/ssa"
)

// via says how the writer of a status write was obtained.
type via int

const (
	viaStatus      via = iota // X.Status()
	viaSubResource            // X.SubResource("status")
	viaWriter                 // a SubResourceWriter/SubResourceClient value of unknown origin
	viaGenerated              // a generated patcher's Flush/Retry
	viaMutate                 // controllerutil.CreateOrPatch's status patch (createorpatch.go)
	viaOther                  // another subresource: not a status write
)

// kind is the object type written, e.g. Widget.
type kind struct {
	name  string
	pkg   *types.Package // nil if unknown
	iface bool           // an interface type: no <Kind>StatusPatcher to suggest
	acPkg *types.Package // an apply configuration's package (pkg is nil then)
}

// write is one status write found in the package.
type write struct {
	pos       token.Pos // the call's Lparen, as SSA records it
	instr     ssa.CallInstruction
	verb      string // Patch, Update, Apply, Create, Flush, Retry
	via       via
	recvName  string      // SubResourceWriter, WidgetStatusPatcher...
	args      []ssa.Value // the call's arguments without the receiver: ctx, obj, ...
	kind      kind
	generated bool         // through a generated patcher
	recv      ssa.Value    // the generated patcher, for its write mode
	kindWhy   string       // an unstructured object's: why its kind is not known
	mutate    mutateChange // CreateOrPatch's: what its mutate does to the status
}

func (w *write) label() string {
	switch w.via {
	case viaStatus:
		return "Status()." + w.verb
	case viaSubResource:
		return `SubResource("status").` + w.verb
	default:
		return w.recvName + "." + w.verb
	}
}

var writeVerbs = map[string]bool{"Patch": true, "Update": true, "Apply": true, "Create": true}

// findWrites returns the status writes in funcs, in order, calls of
// generated patchers' Flush/Retry included.
func findWrites(t *tracer, funcs []*ssa.Function) []*write {
	var ws []*write
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				w := matchWrite(t, call.Common())
				if w == nil {
					continue
				}
				w.instr = call
				w.pos = call.Common().Pos()
				ws = append(ws, w)
			}
		}
	}
	return ws
}

func matchWrite(t *tracer, c *ssa.CallCommon) *write {
	if c.IsInvoke() {
		return matchWriterCall(t, c.Method.Name(), c.Value, c.Args)
	}
	if callee := c.StaticCallee(); callee != nil {
		if w := matchPatcherCall(callee, c.Args); w != nil {
			return w
		}
		if w := matchCreateOrPatch(t, c); w != nil {
			return w
		}
	}
	// A method value: f := c.Status().Patch; f(ctx, obj, patch).
	for _, leaf := range t.leaves(c.Value) {
		mc, ok := leaf.(*ssa.MakeClosure)
		if !ok || len(mc.Bindings) != 1 {
			continue
		}
		fn, ok := mc.Fn.(*ssa.Function)
		if !ok || !strings.HasPrefix(fn.Synthetic, "bound method wrapper") {
			continue
		}
		if m, ok := fn.Object().(*types.Func); ok {
			if w := matchWriterCall(t, m.Name(), mc.Bindings[0], c.Args); w != nil {
				return w
			}
		}
	}
	return nil
}

// matchWriterCall matches recv.verb(args...) where recv is a
// client.SubResourceWriter or client.SubResourceClient for "status".
func matchWriterCall(t *tracer, verb string, recv ssa.Value, args []ssa.Value) *write {
	if !writeVerbs[verb] || len(args) < 2 {
		return nil
	}
	recvName := clientTypeName(recv.Type())
	if recvName != "SubResourceWriter" && recvName != "SubResourceClient" {
		return nil
	}
	v := t.writerOrigin(recv)
	if v == viaOther {
		return nil
	}
	return &write{verb: verb, via: v, recvName: recvName, args: args, kind: t.objectKind(args[1], verb == "Apply")}
}

// matchPatcherCall matches Flush/Retry on a generated <Kind>StatusPatcher
// or on patcher.Patcher[T].
func matchPatcherCall(callee *ssa.Function, args []ssa.Value) *write {
	name := callee.Name()
	sig := callee.Signature
	if (name != "Flush" && name != "Retry") || sig.Recv() == nil || len(args) == 0 {
		return nil
	}
	n := kube.NamedOf(sig.Recv().Type())
	if n == nil || n.Obj().Pkg() == nil {
		return nil
	}
	tname := n.Obj().Name()
	if n.Obj().Pkg().Path() == kube.PatcherPkgPath && n.Origin().Obj().Name() == "Patcher" {
		k := kind{name: "object"}
		if ta := n.TypeArgs(); ta != nil && ta.Len() == 1 {
			k = typeKind(ta.At(0), false)
		}
		return &write{verb: name, via: viaGenerated, recvName: "Patcher", args: args[1:], kind: k, generated: true, recv: args[0]}
	}
	if k, ok := strings.CutSuffix(tname, patcherSuffix); ok && k != "" {
		return &write{verb: name, via: viaGenerated, recvName: tname, args: args[1:], kind: kind{name: k, pkg: n.Obj().Pkg()}, generated: true, recv: args[0]}
	}
	return nil
}

// writerOrigin tells where a SubResourceWriter value comes from. Any path
// to Status() or SubResource("status") makes it a status writer; a value
// whose origin is unknown (field, parameter without call sites, helper in
// another package) is assumed to be one; only a writer proven to come from
// another subresource (SubResource("scale")) is not.
func (t *tracer) writerOrigin(recv ssa.Value) via {
	best := viaOther
	for _, leaf := range t.leaves(recv) {
		v := viaWriter
		if call, ok := leaf.(*ssa.Call); ok {
			switch calledName(call.Common()) {
			case "Status":
				v = viaStatus
			case "SubResource":
				v = viaOther
				if args := call.Common().Args; len(args) > 0 {
					if k, ok := args[len(args)-1].(*ssa.Const); ok && k.Value != nil &&
						k.Value.Kind() == constant.String && constant.StringVal(k.Value) == "status" {
						v = viaSubResource
					}
				}
			}
		}
		if v < best {
			best = v
		}
	}
	return best
}

// calledName is the name of the method or function a call invokes.
func calledName(c *ssa.CallCommon) string {
	if c.IsInvoke() {
		return c.Method.Name()
	}
	if fn := c.StaticCallee(); fn != nil {
		if obj := fn.Object(); obj != nil {
			return obj.Name()
		}
		return fn.Name()
	}
	return ""
}

// objectKind names the type of the object written: the Go type name, with
// the ApplyConfiguration suffix removed for apply configurations. An
// interface-typed argument is traced to its concrete type if it is unique;
// otherwise the kind is the interface type written at the call site (see
// interfaceKind).
func (t *tracer) objectKind(obj ssa.Value, apply bool) kind {
	if mi, ok := obj.(*ssa.MakeInterface); ok {
		// The argument's type as written (the call converts it to
		// client.Object): when it is concrete, it is the kind, whatever
		// the value came from (o.(*v1.Widget) from an event's object).
		obj = mi.X
	}
	if !types.IsInterface(obj.Type()) {
		return typeKind(obj.Type(), apply)
	}
	k := t.interfaceKind(declaredType(obj))
	var found *kind
	for _, leaf := range t.leaves(obj) {
		if types.IsInterface(leaf.Type()) {
			return k
		}
		lk := typeKind(leaf.Type(), apply)
		if found != nil && (found.name != lk.name || found.pkg != lk.pkg) {
			return k
		}
		found = &lk
	}
	if found != nil {
		return *found
	}
	return k
}

// declaredType is the type of the argument as written at the call site,
// before its implicit conversion to the parameter's interface type
// (statusObject rather than client.Object).
func declaredType(v ssa.Value) types.Type {
	for range kube.MaxDepth {
		switch c := v.(type) {
		case *ssa.ChangeInterface:
			v = c.X
			continue
		case *ssa.ChangeType: // between interfaces with the same methods
			if types.IsInterface(c.X.Type()) {
				v = c.X
				continue
			}
		}
		break
	}
	return v.Type()
}

// unknownKind names an interface-typed object whose type has no name the
// code under analysis could have written.
const unknownKind = "an object of unknown kind"

// interfaceKind names an interface type as the package under analysis
// spells it: through an alias if it is one (client.Object, not the
// cacheapi.Object it stands for), unqualified if declared in the package,
// qualified by the package name if that package is imported directly.
// Anonymous interfaces, type parameters and interfaces of packages the
// code does not import (an alias lost with gotypesalias=0) are of unknown
// kind.
func (t *tracer) interfaceKind(typ types.Type) kind {
	var obj *types.TypeName
	switch typ := typ.(type) {
	case *types.Alias:
		obj = typ.Obj()
	case *types.Named:
		obj = typ.Obj()
	}
	if obj == nil || obj.Pkg() == nil || !t.visible(obj.Pkg()) {
		return kind{name: unknownKind, iface: true}
	}
	if obj.Pkg() == t.pkg {
		return kind{name: obj.Name(), iface: true}
	}
	return kind{name: obj.Pkg().Name() + "." + obj.Name(), iface: true}
}

// visible reports whether the package under analysis can name p's types.
func (t *tracer) visible(p *types.Package) bool {
	if p == t.pkg {
		return true
	}
	if t.pkg == nil {
		return false
	}
	for _, imp := range t.pkg.Imports() {
		if imp == p {
			return true
		}
	}
	return false
}

func typeKind(t types.Type, apply bool) kind {
	n := kube.NamedOf(t)
	if n == nil {
		return kind{name: types.TypeString(t, (*types.Package).Name), iface: types.IsInterface(t)}
	}
	name := n.Obj().Name()
	if trimmed, ok := strings.CutSuffix(name, "ApplyConfiguration"); apply && ok && trimmed != "" {
		// Apply configurations live in their own package: match the
		// patcher by kind name only.
		return kind{name: trimmed, acPkg: n.Obj().Pkg()}
	}
	if types.IsInterface(n) && n.Obj().Pkg() != nil {
		return kind{name: n.Obj().Pkg().Name() + "." + name, iface: true}
	}
	return kind{name: name, pkg: n.Obj().Pkg()}
}

// clientTypeName returns the name of t if it is a named type of the
// controller-runtime client package, else "".
func clientTypeName(t types.Type) string {
	n := kube.NamedOf(t)
	if n == nil || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != kube.ClientPkgPath {
		return ""
	}
	return n.Obj().Name()
}
