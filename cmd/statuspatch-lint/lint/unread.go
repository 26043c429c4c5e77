package lint

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// An object the writing function makes itself (&Kind{...}, new(Kind),
// var k Kind) and writes before anything gave it a resourceVersion: no
// Get, Create or other call was handed it, no resourceVersion was set on
// it, no other object's metadata copied in. Its Update sends no
// resourceVersion, and a locked merge patch sends an empty one: neither
// is optimistic, whatever the call's form (s112: both were called
// optimistic). The server applies such a write unconditionally where the
// kind allows an update without a resourceVersion, or refuses it.

// clearedLock is the verdict of a locked merge patch w whose object's
// resourceVersion is cleared before it: the lock sends it empty.
func (cl *classifier) clearedLock(w *write) (result, bool) {
	if w.instr == nil || len(w.args) < 2 {
		return result{}, false
	}
	if r, ok := cl.unreadResult(w, "the lock sends the object's resourceVersion, which is empty"); ok {
		return r, true
	}
	for _, s := range cl.objectRVSets(w.instr.Parent(), cl.identity(w.args[1])) {
		if s.cleared && reaches(s.instr, w.instr) {
			return result{blind, "resourceVersion cleared before the patch, whose lock sends it empty"}, true
		}
	}
	return result{}, false
}

// unreadResult is the verdict of the write w of an unread object, ok
// false when the object may have been read.
func (cl *classifier) unreadResult(w *write, how string) (result, bool) {
	a := cl.unread(w)
	if a == nil || cl.pass == nil {
		return result{}, false
	}
	line := cl.pass.Fset.Position(a.Pos()).Line
	return result{blind, fmt.Sprintf("%s: the object is made at line %d and given no resourceVersion before the write (no Get, Create or other call is handed it): the server applies it without a lock where the kind allows that, or refuses it", how, line)}, true
}

// unread is the allocation of w's object when the function makes it
// and nothing can have given it a resourceVersion before w; nil when it
// may have one.
func (cl *classifier) unread(w *write) *ssa.Alloc {
	if w.instr == nil || len(w.args) < 2 {
		return nil
	}
	if _, deferred := w.instr.(*ssa.Defer); deferred {
		return nil // it runs as the function returns, after what follows it
	}
	a, ok := cl.identity(w.args[1]).(*ssa.Alloc)
	if !ok || a.Parent() != w.instr.Parent() || a.Pos() == 0 || !typedKind(a.Type()) {
		return nil
	}
	for _, s := range cl.objectRVSets(w.instr.Parent(), a) {
		if !s.cleared && reaches(s.instr, w.instr) {
			return nil
		}
	}
	if cl.givenRV(w, a) {
		return nil
	}
	return a
}

// givenRV reports whether something before the write w may have given
// a, its object's allocation, a resourceVersion: a call handed it (a Get,
// a Create, a helper; not onlyReads), another name for it, its metadata
// or resourceVersion set or handed on. Of an object that is no typed kind
// (an Unstructured, whose metadata is a map), any field set or handed on.
func (cl *classifier) givenRV(w *write, a *ssa.Alloc) bool {
	if w.instr == nil {
		return false
	}
	typed := typedKind(a.Type())
	seen := map[ssa.Value]bool{}
	var given func(v ssa.Value, meta bool) bool
	// given reports whether a use of v (the object, or its metadata when
	// meta) before w may give it a resourceVersion.
	given = func(v ssa.Value, meta bool) bool {
		if seen[v] {
			return false
		}
		seen[v] = true
		for _, r := range *v.Referrers() {
			if r == w.instr {
				continue
			}
			switch r := r.(type) {
			case *ssa.DebugRef, *ssa.BinOp, *ssa.If, *ssa.Return:
			case *ssa.UnOp:
				// A load: a copy of it, read.
			case *ssa.FieldAddr:
				name := fieldName(r)
				switch {
				case !typed:
					for _, u := range *r.Referrers() {
						if _, load := u.(*ssa.UnOp); !load && reaches(u, w.instr) {
							if _, dbg := u.(*ssa.DebugRef); !dbg {
								return true
							}
						}
					}
				case name == "ObjectMeta" && !meta:
					if given(r, true) {
						return true
					}
				case name == "ResourceVersion" && meta:
					// resourceVersionSets judged its stores; its address
					// handed on is a set not seen.
					for _, u := range *r.Referrers() {
						if s, ok := u.(*ssa.Store); !ok || s.Addr != r {
							if _, dbg := u.(*ssa.DebugRef); !dbg && reaches(u, w.instr) {
								return true
							}
						}
					}
				}
			case *ssa.Store:
				// Stored elsewhere (another name may fill it), or replaced
				// whole by another's; its zero value, or metadata of a
				// literal without a resourceVersion (&Kind{ObjectMeta:
				// metav1.ObjectMeta{Name: n}}), gives it none.
				if r.Addr == v && (isZero(r.Val) || meta && literalMeta(r.Val)) {
					continue
				}
				if reaches(r, w.instr) {
					return true
				}
			case *ssa.MakeInterface, *ssa.ChangeType, *ssa.ChangeInterface:
				if given(r.(ssa.Value), meta) {
					return true
				}
			case ssa.CallInstruction:
				if reaches(r, w.instr) && !onlyReads(r.Common(), v) {
					return true
				}
			default:
				// A phi, a closure's binding, a map or channel: another
				// name for it this walk does not follow.
				if reaches(r, w.instr) {
					return true
				}
			}
		}
		return false
	}
	return given(a, false)
}

// onlyReads reports whether the call, on v, gives it no resourceVersion:
// a DeepCopy (not DeepCopyInto, which writes its argument), a getter, a
// setter but SetResourceVersion (resourceVersionSets judges that one) and
// SetUnstructuredContent.
func onlyReads(c *ssa.CallCommon, v ssa.Value) bool {
	name := calledName(c)
	recv := c.Value
	if !c.IsInvoke() {
		if len(c.Args) == 0 {
			return false
		}
		recv = c.Args[0]
		for _, a := range c.Args[1:] {
			if a == v {
				return false
			}
		}
	} else {
		for _, a := range c.Args {
			if a == v {
				return false
			}
		}
	}
	if recv != v {
		return false
	}
	if name == "ApplyConfigurationFromUnstructured" {
		return true // wraps it for an apply: the write's own
	}
	if strings.HasPrefix(name, "Set") && name != "SetResourceVersion" && name != "SetUnstructuredContent" {
		return true // a name, a label, a condition
	}
	return name == "DeepCopy" || name == "DeepCopyObject" || strings.HasPrefix(name, "Get") && name != "Get"
}

// isZero reports whether v is a constant zero value (Kind{}).
func isZero(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.IsNil() || ok && c.Value == nil
}

// literalMeta reports whether v is the value of a composite literal made
// in the function that sets no resourceVersion: a load of its local
// allocation, whose fields are only stored to (but ResourceVersion) or
// read.
func literalMeta(v ssa.Value) bool {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	lit, ok := load.X.(*ssa.Alloc)
	if !ok {
		return false
	}
	for _, r := range *lit.Referrers() {
		switch r := r.(type) {
		case *ssa.UnOp, *ssa.DebugRef:
		case *ssa.FieldAddr:
			if fieldName(r) == "ResourceVersion" {
				return false
			}
			for _, u := range *r.Referrers() {
				if s, ok := u.(*ssa.Store); !ok || s.Addr != r {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// objectRVSets is resourceVersionSets of the object a write sends, with
// what else gives it its resourceVersion before the write: its whole
// metadata stored (obj.ObjectMeta = metav1.ObjectMeta{Name: n}: cleared,
// by a literal without one; set by any other value), and a function of
// the package handed it whose body, followed, does either (clearRV(obj)):
// a set at the call (helperRV).
func (cl *classifier) objectRVSets(fn *ssa.Function, obj ssa.Value) []rvSet {
	sets := cl.resourceVersionSets(fn, obj)
	if fn == nil {
		return sets
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.Store:
				if fa, ok := instr.Addr.(*ssa.FieldAddr); ok && fieldName(fa) == "ObjectMeta" && cl.identity(fa.X) == obj {
					cleared := literalMeta(instr.Val) || isZero(instr.Val)
					if _, made := obj.(*ssa.Alloc); made && cleared && !cl.handedBefore(fn, obj, instr) {
						continue // its literal's metadata, before anything read it: unread judges it
					}
					sets = append(sets, rvSet{instr, cleared})
				}
			case ssa.CallInstruction:
				g := instr.Common().StaticCallee()
				if g == nil || g == fn || g.Pkg != fn.Pkg || len(g.Params) != len(instr.Common().Args) {
					continue
				}
				for i, a := range instr.Common().Args {
					if cl.identity(a) != obj {
						continue
					}
					set, cleared := cl.helperRV(g.Params[i])
					if set {
						sets = append(sets, rvSet{instr, false})
					}
					if cleared {
						sets = append(sets, rvSet{instr, true})
					}
				}
			}
		}
	}
	return sets
}

// helperRV says whether p's function, or one it hands p to, may set p's
// resourceVersion (set) or clear it (cleared); once per parameter, a
// cycle of calls adding nothing.
func (cl *classifier) helperRV(p *ssa.Parameter) (set, cleared bool) {
	if cl.rvMemo == nil {
		cl.rvMemo = map[*ssa.Parameter][2]bool{}
	}
	if r, ok := cl.rvMemo[p]; ok {
		return r[0], r[1]
	}
	cl.rvMemo[p] = [2]bool{}
	for _, s := range cl.objectRVSets(p.Parent(), p) {
		set, cleared = set || !s.cleared, cleared || s.cleared
	}
	cl.rvMemo[p] = [2]bool{set, cleared}
	return set, cleared
}

// typedKind reports whether t, a pointer, is to a struct embedding
// ObjectMeta: a typed kind, whose resourceVersion only its metadata
// holds (an Unstructured's is in a map this walk does not follow).
func typedKind(t types.Type) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	st, ok := p.Elem().Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for f := range st.Fields() {
		if f.Embedded() && f.Name() == "ObjectMeta" {
			return true
		}
	}
	return false
}

// handedBefore reports whether a call of fn that may give obj a
// resourceVersion (a Get, a Create, a helper; not onlyReads) runs before at.
func (cl *classifier) handedBefore(fn *ssa.Function, obj ssa.Value, at ssa.Instruction) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			c, ok := instr.(ssa.CallInstruction)
			if !ok || !reaches(instr, at) {
				continue
			}
			com := c.Common()
			for _, a := range append([]ssa.Value{com.Value}, com.Args...) {
				if a != nil && cl.identity(a) == obj && !onlyReads(com, a) {
					return true
				}
			}
		}
	}
	return false
}
