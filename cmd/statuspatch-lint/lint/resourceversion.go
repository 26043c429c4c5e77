package lint

import (
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Update and server-side apply carry the object's resourceVersion, or not:
// their verdicts depend on what the writing function does to it before the
// call.

// classifyUpdate: an Update sends the object's resourceVersion, so it is
// optimistic unless the function clears it before the call.
func (t *tracer) classifyUpdate(w *write) result {
	obj := t.identity(w.args[1])
	for _, set := range t.resourceVersionSets(w.instr.Parent(), obj) {
		if set.cleared && reaches(set.instr, w.instr) {
			return result{blind, "resourceVersion cleared before Update"}
		}
	}
	return result{optimistic, "Update sends the object's resourceVersion"}
}

// classifyApply: server-side apply is blind unless the apply configuration
// sets a resourceVersion.
func (t *tracer) classifyApply(w *write) result {
	v := w.args[1]
	for range maxDepth {
		v = t.identity(v)
		call, ok := v.(*ssa.Call)
		if !ok {
			break
		}
		if u, ok := fromUnstructured(call.Common()); ok {
			return t.unstructuredApply(w, u)
		}
		name := calledName(call.Common())
		if name == "WithResourceVersion" {
			return result{optimistic, "apply configuration WithResourceVersion"}
		}
		args := call.Common().Args
		if call.Common().IsInvoke() || len(args) == 0 || len(name) < 4 || name[:4] != "With" {
			break
		}
		v = args[0] // the builder's receiver
	}
	for _, set := range t.resourceVersionSets(w.instr.Parent(), v) {
		if !set.cleared && reaches(set.instr, w.instr) {
			return result{optimistic, "apply configuration sets resourceVersion"}
		}
	}
	return result{blind, "server-side apply without resourceVersion"}
}

// fromUnstructured returns u for a call client.ApplyConfigurationFromUnstructured(u).
func fromUnstructured(c *ssa.CallCommon) (ssa.Value, bool) {
	fn := c.StaticCallee()
	if fn == nil || !isClientFunc(fn) || fn.Name() != "ApplyConfigurationFromUnstructured" || len(c.Args) != 1 {
		return nil, false
	}
	return c.Args[0], true
}

// unstructuredApply classifies Apply(ctx, client.ApplyConfigurationFromUnstructured(u)):
// the configuration wraps u, so u's resourceVersion is sent. Blind if the
// function clears it before the call (even if it sets it on another path)
// or if u is a new object without one; optimistic if the function sets
// it; otherwise unresolved (an object read from the API server has one).
func (t *tracer) unstructuredApply(w *write, u ssa.Value) result {
	obj := t.identity(u)
	set, cleared := t.resourceVersionBefore(w, obj)
	if cleared {
		return result{blind, "resourceVersion cleared before apply"}
	}
	if set {
		return result{optimistic, "apply configuration sets resourceVersion"}
	}
	if _, fresh := obj.(*ssa.Alloc); fresh {
		return result{blind, "server-side apply of a new unstructured object without resourceVersion"}
	}
	return result{unresolved, "client.ApplyConfigurationFromUnstructured: object's resourceVersion unknown"}
}

// applyPatch classifies Patch(ctx, obj, client.Apply): optimistic if the
// object's resourceVersion is set in the function, blind for a fresh
// object without one, unresolved otherwise.
func (t *tracer) applyPatch(w *write) result {
	obj := t.identity(w.args[1])
	if set, _ := t.resourceVersionBefore(w, obj); set {
		return result{optimistic, "client.Apply of an object with resourceVersion set"}
	}
	if _, fresh := obj.(*ssa.Alloc); fresh {
		return result{blind, "client.Apply of a new object without resourceVersion"}
	}
	return result{unresolved, "client.Apply: object's resourceVersion unknown"}
}

// resourceVersionBefore reports whether, in the write's function, obj's
// resourceVersion may be set to a value, or cleared, before the write.
func (t *tracer) resourceVersionBefore(w *write, obj ssa.Value) (set, cleared bool) {
	for _, s := range t.resourceVersionSets(w.instr.Parent(), obj) {
		if !reaches(s.instr, w.instr) {
			continue
		}
		if s.cleared {
			cleared = true
		} else {
			set = true
		}
	}
	return set, cleared
}

// rvSet is an instruction setting the resourceVersion of an object.
type rvSet struct {
	instr   ssa.Instruction
	cleared bool // set to ""
}

// resourceVersionSets finds, in fn, the calls obj.SetResourceVersion(x) and
// obj.WithResourceVersion(x), and the stores to obj's ResourceVersion field
// (also through embedded ObjectMeta).
func (t *tracer) resourceVersionSets(fn *ssa.Function, obj ssa.Value) []rvSet {
	var sets []rvSet
	if fn == nil {
		return nil
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case ssa.CallInstruction:
				c := instr.Common()
				name := calledName(c)
				if name != "SetResourceVersion" && name != "WithResourceVersion" {
					continue
				}
				recv, args := c.Value, c.Args
				if !c.IsInvoke() {
					if len(args) == 0 {
						continue
					}
					recv, args = args[0], args[1:]
				}
				if t.identity(recv) == obj && len(args) == 1 {
					sets = append(sets, rvSet{instr, isEmptyString(args[0])})
				}
			case *ssa.Store:
				fa, ok := instr.Addr.(*ssa.FieldAddr)
				if !ok || fieldName(fa) != "ResourceVersion" {
					continue
				}
				if t.fieldRoot(fa) == obj {
					sets = append(sets, rvSet{instr, isEmptyString(instr.Val)})
				}
			}
		}
	}
	return sets
}

// fieldRoot follows a chain of field addresses (obj.ObjectMeta.X) to the
// object.
func (t *tracer) fieldRoot(fa *ssa.FieldAddr) ssa.Value {
	var v ssa.Value = fa
	for range maxDepth {
		f, ok := v.(*ssa.FieldAddr)
		if !ok {
			break
		}
		v = f.X
	}
	return t.identity(v)
}

func fieldName(fa *ssa.FieldAddr) string {
	st, ok := types.Unalias(fa.X.Type()).(*types.Pointer)
	if !ok {
		return ""
	}
	s, ok := st.Elem().Underlying().(*types.Struct)
	if !ok || fa.Field >= s.NumFields() {
		return ""
	}
	return s.Field(fa.Field).Name()
}

func isEmptyString(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	if !ok {
		return false
	}
	if c.Value == nil {
		// The zero value; for a *string field it is nil, also no version.
		return true
	}
	return c.Value.Kind() == constant.String && constant.StringVal(c.Value) == ""
}
