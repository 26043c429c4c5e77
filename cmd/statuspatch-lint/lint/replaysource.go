package lint

import (
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/ssa"
)

// metaPkgPath is apimachinery's condition helpers' package
// (SetStatusCondition, FindStatusCondition): their results and the
// conditions they set are computed from their arguments.
const metaPkgPath = "k8s.io/apimachinery/pkg/api/meta"

// staleSource finds out whether a value written into the re-read object's
// status is computed from an object of the written type read before the
// closure: the old object itself, a value derived from it (a Condition
// built from it, its generation), through captured variables, fields,
// composite literals, append, the package's own functions, methods of the
// object and apimachinery's condition helpers. Any other call (a result
// fetched elsewhere), a parameter of another type and a constant end the
// search: those inputs are external to the object.
type staleSource struct {
	t       *tracer
	fresh   fresh      // the re-read object (its identities) and its re-read
	objType types.Type // its type
	seen    map[ssa.Value]bool
	bound   map[*ssa.Parameter]binding // parameters of the local callees followed
	use     ssa.Instruction            // where the value reaches the status
	crossed bool                       // past a phi the re-read runs after
	site    ssa.Instruction            // the call of the re-read's function followed into
}

// binding is the argument a followed call passes for a parameter, and
// whether that call is outside the closure.
type binding struct {
	arg     ssa.Value
	outside bool
}

// stale is where a replayed value comes from: the captured variable the
// closure reads it from, and the pre-read object it is computed from;
// read when that object is not captured but read before the re-read in
// the function (a parameter, a Get, a patcher's Object()).
type stale struct {
	captured, object string
	read             bool
}

func (s stale) String() string {
	if s.read {
		return "computed from " + s.object + ", read before the re-read"
	}
	if s.captured == "" || s.captured == s.object {
		return "assigned from captured " + s.object
	}
	return "assigned from captured " + s.captured + ", computed from " + s.object + " before the re-read"
}

func newStaleSource(t *tracer, f fresh, use ssa.Instruction) *staleSource {
	return &staleSource{t: t, fresh: f, objType: f.objs[0].Type(), seen: map[ssa.Value]bool{}, bound: map[*ssa.Parameter]binding{}, use: use}
}

// readBefore reports whether v, an object of the written type other than
// the fresh one, was read before the re-read in its function: a parameter,
// an object read with Get, or a patcher's Object(), before it.
// It names the object: the parameter, or where it is read.
func (s *staleSource) readBefore(v ssa.Value) (string, bool) {
	r := s.fresh.reread
	if r == nil || !sameObjectType(v.Type(), s.objType) || s.fresh.is(s.t.identity(v)) {
		return "", false
	}
	line := func(at ssa.Instruction) string {
		return strconv.Itoa(r.Parent().Prog.Fset.Position(at.Pos()).Line)
	}
	kind := derefNamed(v.Type()).Obj().Name()
	switch v := v.(type) {
	case *ssa.Parameter:
		return v.Name(), v.Parent() == r.Parent()
	case *ssa.Alloc:
		get := (&replayer{s.t}).reRead(r.Parent(), v, r)
		if get != nil && get != r && before(get, r) {
			return "the " + kind + " read at line " + line(get), true
		}
	case *ssa.Call:
		if calledName(v.Common()) == "Object" && v.Parent() == r.Parent() && before(v, r) {
			return "the " + kind + " of the patcher at line " + line(v), true
		}
	}
	return "", false
}

// of returns where v, a value computed inside the closure, comes from, if
// it is stale.
func (s *staleSource) of(v ssa.Value) (stale, bool) {
	return s.walk(v, false, "", 0)
}

// walk follows v back; outside says whether v is computed outside the
// closure, captured names the captured variable crossed on the way.
func (s *staleSource) walk(v ssa.Value, outside bool, captured string, depth int) (stale, bool) {
	if v == nil || depth > kube.MaxDepth || s.seen[v] || s.fresh.is(s.t.identity(v)) {
		return stale{}, false
	}
	if name, ok := s.readBefore(v); ok {
		return stale{object: name, read: true}, true
	}
	if name, ok := s.loadedBefore(v); ok {
		return stale{object: name, read: true}, true
	}
	if name, ok := s.calledBefore(v); ok {
		return stale{object: name, read: true}, true
	}
	s.seen[v] = true
	next := func(w ssa.Value) (stale, bool) { return s.walk(w, outside, captured, depth+1) }
	if outside && sameObjectType(v.Type(), s.objType) {
		if _, ok := v.(*ssa.Const); !ok {
			return stale{captured: captured, object: valueName(v)}, true
		}
	}
	switch v := v.(type) {
	case *ssa.Const, *ssa.Global, *ssa.Function, *ssa.MakeClosure, *ssa.Builtin:
		return stale{}, false
	case *ssa.FreeVar:
		if s.fresh.is(s.t.freeVarRoot(v, 0)) {
			return stale{}, false
		}
		if captured == "" {
			captured = v.Name()
		}
		if sameObjectType(v.Type(), s.objType) {
			return stale{captured: captured, object: v.Name()}, true
		}
		for _, b := range s.t.bindings(v) {
			if st, ok := s.walk(b, true, captured, depth+1); ok {
				return st, true
			}
		}
		return stale{}, false
	case *ssa.Parameter:
		if b, ok := s.bound[v]; ok {
			return s.walk(b.arg, b.outside, captured, depth+1)
		}
		return stale{}, false // an input of another type: external
	case *ssa.Alloc:
		if sameObjectType(v.Type(), s.objType) {
			return stale{}, false // an object made inside the closure
		}
		for _, val := range s.storedInto(v) {
			if st, ok := next(val); ok {
				return st, true
			}
		}
		return stale{}, false
	case *ssa.Call:
		return s.at(v, func() (stale, bool) { return s.call(v.Common(), 0, outside, captured, depth) })
	case *ssa.Extract:
		if call, ok := v.Tuple.(*ssa.Call); ok {
			return s.at(call, func() (stale, bool) { return s.call(call.Common(), v.Index, outside, captured, depth) })
		}
	case *ssa.UnOp:
		if v.Op == token.ARROW {
			return stale{}, false // received from a channel: external
		}
		if a, ok := v.X.(*ssa.Alloc); ok && v.Op == token.MUL {
			return s.allocLoad(v, a, next)
		}
	case *ssa.Phi:
		return s.phi(v, next)
	}
	instr, ok := v.(ssa.Instruction)
	if !ok {
		return stale{}, false
	}
	for _, op := range instr.Operands(nil) {
		if st, ok := next(*op); ok {
			return st, true
		}
	}
	return stale{}, false
}

// call follows result idx of a call: into the package's own functions
// (their parameters bound to this call's arguments), through append, the
// object's methods, DeepCopy and the condition helpers. Any other call is
// an external input.
func (s *staleSource) call(c *ssa.CallCommon, idx int, outside bool, captured string, depth int) (stale, bool) {
	var follow []ssa.Value
	switch fn := c.Value.(type) {
	case *ssa.Builtin:
		if fn.Name() == "append" {
			follow = c.Args
		}
	default:
		if callee := localCallee(c); callee != nil && callee.Pkg != nil && callee.Pkg.Pkg == s.t.pkg {
			return s.localCall(callee, c, idx, outside, captured, depth)
		}
		recv := receiver(c)
		name := calledName(c)
		switch {
		case recv != nil && (sameObjectType(s.t.identity(recv).Type(), s.objType) || strings.HasPrefix(name, "DeepCopy")):
			// w.GetGeneration() is a method of the embedded ObjectMeta.
			follow = []ssa.Value{recv}
		case isMetaFunc(c):
			follow = c.Args
		}
	}
	for _, a := range follow {
		if st, ok := s.walk(a, outside, captured, depth+1); ok {
			return st, true
		}
	}
	return stale{}, false
}

// localCall follows the results of a function of the package.
func (s *staleSource) localCall(fn *ssa.Function, c *ssa.CallCommon, idx int, outside bool, captured string, depth int) (stale, bool) {
	saved := map[*ssa.Parameter]binding{}
	for i, p := range fn.Params {
		if i < len(c.Args) {
			if old, ok := s.bound[p]; ok {
				saved[p] = old
			}
			s.bound[p] = binding{arg: c.Args[i], outside: outside}
		}
	}
	defer func() {
		for _, p := range fn.Params {
			delete(s.bound, p)
		}
		for p, b := range saved {
			s.bound[p] = b
		}
	}()
	for _, r := range returns(fn) {
		if idx < len(r.Results) {
			if st, ok := s.walk(r.Results[idx], outside, captured, depth+1); ok {
				return st, true
			}
		}
	}
	return stale{}, false
}

// storedInto returns the values stored into a local variable, its fields
// and elements, also through closures that capture it, and the conditions
// a condition helper sets into it.
func (s *staleSource) storedInto(alloc *ssa.Alloc) []ssa.Value {
	var vals []ssa.Value
	addrs := s.t.aliases(alloc)
	if len(addrs) == 0 {
		addrs = []ssa.Value{alloc}
	}
	for i := 0; i < len(addrs) && i < 256; i++ {
		refs := addrs[i].Referrers()
		if refs == nil {
			continue
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.Store:
				if r.Addr == addrs[i] {
					vals = append(vals, r.Val)
				}
			case *ssa.FieldAddr:
				addrs = append(addrs, r)
			case *ssa.IndexAddr:
				addrs = append(addrs, r)
			case *ssa.Call:
				if isMetaFunc(r.Common()) {
					vals = append(vals, r.Common().Args...)
				}
			}
		}
	}
	return vals
}

// statusUpdate is an argument of a call that updates a status in place.
type statusUpdate struct {
	call ssa.CallInstruction
	val  ssa.Value
}

// statusArgsOf returns the arguments of the calls in fn that update f's
// status in place (meta.SetStatusCondition(&obj.Status.Conditions, c)):
// every argument but the status address itself.
func (rp *replayer) statusArgsOf(fn *ssa.Function, f fresh) []statusUpdate {
	var vals []statusUpdate
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			args := call.Common().Args
			statusArg := -1
			for i, a := range args {
				if fa, ok := a.(*ssa.FieldAddr); ok && throughStatus(fa) && f.is(rp.fieldRoot(fa)) {
					statusArg = i
				}
			}
			if statusArg < 0 {
				continue
			}
			for i, a := range args {
				if i != statusArg {
					vals = append(vals, statusUpdate{call, a})
				}
			}
		}
	}
	return vals
}

// receiver is the receiver of a method call, or nil.
func receiver(c *ssa.CallCommon) ssa.Value {
	if c.IsInvoke() {
		return c.Value
	}
	if fn := c.StaticCallee(); fn != nil && fn.Signature.Recv() != nil && len(c.Args) > 0 {
		return c.Args[0]
	}
	return nil
}

func isMetaFunc(c *ssa.CallCommon) bool {
	fn := c.StaticCallee()
	if fn == nil {
		return false
	}
	obj := fn.Object()
	return obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == metaPkgPath
}

// valueName names a value for a message: its variable's name if it has one.
func valueName(v ssa.Value) string {
	switch v := v.(type) {
	case *ssa.Parameter:
		return v.Name()
	case *ssa.FreeVar:
		return v.Name()
	case *ssa.Alloc:
		if v.Comment != "" {
			return v.Comment
		}
	case *ssa.Call:
		return "the result of " + calledName(v.Common())
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return valueName(v.X)
		}
	}
	return "an object read before"
}

// loadedBefore reports whether v is a field of the fresh object loaded
// before its re-read, in the re-read's function (phase :=
// w.Status.Phase, then c.Get(ctx, key, w) into the same variable, then
// w.Status.Phase = phase): the value of the read before, though the
// variable is the fresh one.
func (s *staleSource) loadedBefore(v ssa.Value) (string, bool) {
	r := s.fresh.reread
	load, ok := v.(*ssa.UnOp)
	if r == nil || !ok || load.Op != token.MUL {
		return "", false
	}
	if load.Parent() != r.Parent() {
		return s.loadedInCallee(v)
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok || identityField(fa) || !s.fresh.is(s.t.fieldRoot(fa)) || !s.across(load) {
		return s.loadedInCallee(v)
	}
	kind := derefNamed(s.objType).Obj().Name()
	for _, p := range []token.Pos{load.Pos(), fa.Pos()} {
		if at := r.Parent().Prog.Fset.Position(p).Line; at > 0 {
			return "the " + kind + "'s fields at line " + strconv.Itoa(at), true
		}
	}
	return "the " + kind + "'s fields before it", true
}
