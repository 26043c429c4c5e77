package lint

import (
	"go/constant"
	"go/token"
	"go/types"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/ssa"
)

// Update and server-side apply carry the object's resourceVersion, or not:
// their verdicts depend on what the writing function does to it before the
// call (apply.go classifies the applies).

// classifyUpdate: an Update sends the object's resourceVersion, so it is
// optimistic unless the function clears it before the call.
func (cl *classifier) classifyUpdate(w *write) result {
	if r, ok := cl.unreadResult(w, "Update sends no resourceVersion"); ok {
		return r
	}
	obj := cl.identity(w.args[1])
	for _, set := range cl.objectRVSets(w.instr.Parent(), obj) {
		if set.cleared && reaches(set.instr, w.instr) {
			return result{blind, "resourceVersion cleared before Update"}
		}
	}
	return result{optimistic, "Update sends the object's resourceVersion"}
}

// resourceVersionBefore reports whether, in the write's function, obj's
// resourceVersion may be set to a value, or cleared, before the write.
func (cl *classifier) resourceVersionBefore(w *write, obj ssa.Value) (set, cleared bool) {
	if w.instr == nil { // a patch value classified outside a write (patchsource.go)
		return false, false
	}
	for _, s := range cl.resourceVersionSets(w.instr.Parent(), obj) {
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
func (cl *classifier) resourceVersionSets(fn *ssa.Function, obj ssa.Value) []rvSet {
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
				if cl.identity(recv) == obj && len(args) == 1 {
					sets = append(sets, rvSet{instr, isEmptyString(args[0])})
				}
			case *ssa.Store:
				fa, ok := instr.Addr.(*ssa.FieldAddr)
				if !ok || fieldName(fa) != "ResourceVersion" {
					continue
				}
				if cl.fieldRoot(fa) == obj {
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
	for range kube.MaxDepth {
		if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
			// Through an embedded pointer: cfg.ResourceVersion of an
			// apply configuration is cfg.ObjectMetaApplyConfiguration.ResourceVersion.
			if e, ok := load.X.(*ssa.FieldAddr); ok && embeddedField(e) {
				v = e
				continue
			}
		}
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
