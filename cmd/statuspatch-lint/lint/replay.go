package lint

import (
	"go/types"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/ssa"
)

// A replayed status write sends a fresh resourceVersion, so the server
// accepts it, yet overwrites other writers: the status it writes was
// decided before the re-read. Two shapes are recognized:
//
//   - a closure (retry.RetryOnConflict's, say) that re-reads the object
//     with Get, assigns its status, whole or field by field, from a value
//     captured from outside the closure, and writes it;
//   - the mutate function of a generated patcher's Retry that assigns the
//     live object's status from such a captured value.
//
// The captured value counts as decided before the re-read when it is (part
// of) an object of the written type, a whole status value, or a value of
// any type computed from an object of the written type before the closure
// (a Condition built from it, its generation: see staleSource). A value
// computed inside the closure from the fresh object is not a replay, nor
// is a constant or an input from elsewhere (a parameter of another type,
// a result fetched by a call): such inputs are external to the object.

// A replayer finds the writes that replay a status captured before a
// re-read (replay), with staleSource for the values computed inside the
// closure. It follows values with the tracer it embeds.
type replayer struct {
	*tracer
}

// replay returns why w writes a replayed status, or "" if it does not.
func (rp *replayer) replay(w *write) string {
	if w.generated {
		if w.verb != "Retry" || len(w.args) < 2 {
			return ""
		}
		for _, leaf := range rp.leaves(w.args[1]) {
			if mc, ok := leaf.(*ssa.MakeClosure); ok {
				if fn, ok := mc.Fn.(*ssa.Function); ok && len(fn.Params) == 1 {
					if why := rp.capturedStatus(fn, fn.Params[0]); why != "" {
						return why + " in Retry's mutate"
					}
				}
			}
		}
		return ""
	}
	fn := w.instr.Parent()
	if fn == nil || len(fn.FreeVars) == 0 || len(w.args) < 2 {
		return ""
	}
	obj := rp.identity(w.args[1])
	if !rp.reReads(fn, obj) {
		return ""
	}
	return rp.capturedStatus(fn, obj)
}

// reReads reports whether fn reads obj with a Get.
func (rp *replayer) reReads(fn *ssa.Function, obj ssa.Value) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok || calledName(call.Common()) != "Get" {
				continue
			}
			for _, a := range call.Common().Args {
				if rp.identity(a) == obj {
					return true
				}
			}
		}
	}
	return false
}

// capturedStatus finds in fn a store to obj's status (obj.Status = v, or
// obj.Status.F = v), or a call updating it in place
// (meta.SetStatusCondition(&obj.Status.Conditions, c)), whose value is
// replayed: a captured object of the written type or whole status, or a
// value computed from such an object before the closure (see
// staleSource), and says which.
func (rp *replayer) capturedStatus(fn *ssa.Function, obj ssa.Value) string {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			fa, ok := st.Addr.(*ssa.FieldAddr)
			if !ok || !throughStatus(fa) || rp.fieldRoot(fa) != obj {
				continue
			}
			if name, ok := rp.capturedFrom(st.Val, obj, fa); ok {
				return replayedWhy(stale{object: name})
			}
			if src, ok := newStaleSource(rp.tracer, obj).of(st.Val); ok {
				return replayedWhy(src)
			}
		}
	}
	for _, a := range rp.statusArgsOf(fn, obj) {
		if src, ok := newStaleSource(rp.tracer, obj).of(a); ok {
			return replayedWhy(src)
		}
	}
	return ""
}

func replayedWhy(src stale) string {
	return "status replayed from before the re-read (" + src.String() + ")"
}

// throughStatus reports whether a chain of field addresses passes through
// a field named Status.
func throughStatus(fa *ssa.FieldAddr) bool {
	var v ssa.Value = fa
	for range kube.MaxDepth {
		f, ok := v.(*ssa.FieldAddr)
		if !ok {
			return false
		}
		if fieldName(f) == "Status" {
			return true
		}
		v = f.X
	}
	return false
}

// capturedFrom reports whether v is loaded (through fields) from a
// variable captured by the closure, other than obj itself, that holds an
// object of obj's type, or is a whole status value captured from outside.
func (rp *replayer) capturedFrom(v ssa.Value, obj ssa.Value, addr *ssa.FieldAddr) (string, bool) {
	wholeStatus := fieldName(addr) == "Status"
	for range kube.MaxDepth {
		switch x := v.(type) {
		case *ssa.UnOp:
			v = x.X
			continue
		case *ssa.FieldAddr:
			v = x.X
			continue
		case *ssa.Field:
			v = x.X
			continue
		case *ssa.FreeVar:
			root := rp.freeVarRoot(x, 0)
			if x == obj || root == obj {
				return "", false
			}
			if sameObjectType(x.Type(), obj.Type()) || wholeStatus {
				return x.Name(), true
			}
			return "", false
		}
		return "", false
	}
	return "", false
}

// sameObjectType reports whether a and obj are, through any pointers, the
// same named type.
func sameObjectType(a, obj types.Type) bool {
	na, no := derefNamed(a), derefNamed(obj)
	return na != nil && no != nil && na.Obj() == no.Obj()
}

func derefNamed(t types.Type) *types.Named {
	for range kube.MaxDepth {
		p, ok := types.Unalias(t).(*types.Pointer)
		if !ok {
			break
		}
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
}
