package lint

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/ssa"
)

// A replayed status write sends a fresh resourceVersion, so the server
// accepts it, yet overwrites other writers: the status it writes was
// decided before the re-read. One model covers every route: the write's
// fresh object, the re-read that made it fresh, and the status stored into
// it from a value decided before that re-read. The routes:
//
//   - a handwritten write of an object the function re-reads with Get
//     (typically in retry.RetryOnConflict's closure);
//   - a generated patcher's Flush, its patcher made after a Get of its
//     object (New<Kind>StatusPatcher(c, obj)) or by a Fetch (the object is
//     then p.Object());
//   - the mutate function of a generated patcher's Retry (the Retry
//     re-reads; its parameter is the fresh object).
//
// A value counts as decided before the re-read when it is (part of) an
// object of the written type other than the fresh one that was read
// before the re-read (captured from outside the closure, a parameter, an
// object read with Get or a patcher's Object() before it), a whole status
// value captured from outside, or a value of any type computed from such
// an object (a Condition built from it, its generation: see staleSource).
// A value computed from the fresh object is not a replay, nor is a
// constant or an input from elsewhere (a parameter of another type, a
// result fetched by a call): such inputs are external to the object.

// A replayer finds the writes that replay a status decided before a
// re-read (replay), with staleSource for the values computed. It follows
// values with the tracer it embeds.
type replayer struct {
	*tracer
}

// replayed is a write's replay: why, where the status is assigned, and
// where the re-read is (token.NoPos for Retry's own).
type replayed struct {
	why            string
	assign, reread token.Pos
}

// fresh is a written object after its re-read: its identities (the
// object, or each p.Object() of a fetched patcher), the re-read (nil for
// Retry's mutate, which Retry re-reads for) and the write (nil for
// Retry's mutate): only what may run between them is written.
type fresh struct {
	objs          []ssa.Value
	reread, write ssa.Instruction
}

func (f fresh) is(v ssa.Value) bool { return slices.Contains(f.objs, v) }

// replay returns why w writes a replayed status, or a zero replayed.
func (rp *replayer) replay(w *write) replayed {
	if w.generated {
		switch {
		case w.verb == "Retry" && len(w.args) >= 2:
			for _, leaf := range rp.leaves(w.args[1]) {
				if mc, ok := leaf.(*ssa.MakeClosure); ok {
					if fn, ok := mc.Fn.(*ssa.Function); ok && len(fn.Params) == 1 {
						if r := rp.capturedStatus(fn, fresh{objs: []ssa.Value{fn.Params[0]}}); r.why != "" {
							r.why += " in Retry's mutate"
							return r
						}
					}
				}
			}
		case w.verb == "Flush" && w.recv != nil:
			return rp.flushReplay(w)
		}
		return replayed{}
	}
	if len(w.args) < 2 {
		return replayed{}
	}
	fn := w.instr.Parent()
	obj := rp.identity(w.args[1])
	objs := []ssa.Value{obj}
	get := rp.reRead(fn, obj, w.instr)
	if get == nil {
		var src ssa.Value
		if src, get = rp.copyReRead(fn, obj); get != nil {
			objs = append(objs, src) // read into by the re-read: as fresh
		}
	}
	if get == nil {
		return replayed{}
	}
	return rp.capturedStatus(fn, fresh{objs: objs, reread: get, write: immediate(w.instr)})
}

// copyReRead is the object obj is a copy of (current.DeepCopy(), or
// current.DeepCopyObject().(*T)) and its re-read, made in fn before the
// copy (dc := current.DeepCopy() after a Get of current, the copy
// written, as kro's status updates write it), or nil: the copy is as
// fresh as its source, and so is the source itself after the Get.
func (rp *replayer) copyReRead(fn *ssa.Function, obj ssa.Value) (ssa.Value, ssa.Instruction) {
	if ta, ok := obj.(*ssa.TypeAssert); ok {
		obj = ta.X
	}
	call, ok := obj.(*ssa.Call)
	if !ok {
		return nil, nil
	}
	if name := calledName(call.Common()); name != "DeepCopy" && name != "DeepCopyObject" {
		return nil, nil
	}
	src := receiver(call.Common())
	if src == nil {
		return nil, nil
	}
	src = rp.identity(src)
	get := rp.reRead(fn, src, call)
	if get == nil {
		return nil, nil
	}
	return src, get
}

// immediate is the write's call when it writes where it is, nil for a
// deferred or go call, which writes what is assigned until it runs.
func immediate(call ssa.CallInstruction) ssa.Instruction {
	switch call.(type) {
	case *ssa.Defer, *ssa.Go:
		return nil
	}
	return call
}

// flushReplay is the replay of a generated patcher's Flush: the patcher
// made in the function after a Get of its object, or by a Fetch.
func (rp *replayer) flushReplay(w *write) replayed {
	for _, leaf := range rp.leaves(w.recv) {
		var f fresh
		switch v := leaf.(type) {
		case *ssa.Call:
			obj, ok := constructedObject(v.Common())
			if !ok {
				continue
			}
			obj = rp.identity(obj)
			if f.reread = rp.reRead(v.Parent(), obj, v); f.reread == nil {
				continue
			}
			f.objs = append([]ssa.Value{obj}, rp.objectCalls(v.Parent(), v)...)
		case *ssa.Extract:
			call, ok := v.Tuple.(*ssa.Call)
			if !ok || v.Index != 0 || !isFetchConstructor(call.Common()) {
				continue
			}
			f = fresh{objs: rp.objectCalls(v.Parent(), v), reread: call}
			if obj, ok := fetchedInto(call.Common()); ok {
				f.objs = append(f.objs, rp.identity(obj)) // the caller's object, read into
			}
		default:
			continue
		}
		f.write = immediate(w.instr)
		fns := []*ssa.Function{f.reread.Parent()}
		if wf := w.instr.Parent(); wf != fns[0] {
			fns = append(fns, wf)
		}
		for _, fn := range fns {
			if r := rp.capturedStatus(fn, f); r.why != "" {
				r.why += " through Flush: decide it in Retry's mutate, from the object it re-reads"
				return r
			}
		}
	}
	return replayed{}
}

// constructedObject is the object a New<Kind>StatusPatcher(c, obj, ...)
// or patcher.New/NewWithStatus(c, obj, ...) call is made from.
func constructedObject(c *ssa.CallCommon) (ssa.Value, bool) {
	fn := c.StaticCallee()
	if fn == nil || len(c.Args) < 2 {
		return nil, false
	}
	obj := funcObject(fn)
	if obj == nil || obj.Pkg() == nil {
		return nil, false
	}
	name := obj.Name()
	switch {
	case obj.Pkg().Path() == kube.PatcherPkgPath && (name == "New" || name == "NewWithStatus"):
	case strings.HasPrefix(name, "New") && generatedConstructor.MatchString(name) && returnsGeneratedPatcher(fn.Signature):
	default:
		return nil, false
	}
	return c.Args[1], true
}

// isFetchConstructor reports whether c is Fetch<Kind>StatusPatcher or
// patcher.Fetch/FetchWithStatus: a patcher made by a fresh read.
func isFetchConstructor(c *ssa.CallCommon) bool {
	fn := c.StaticCallee()
	if fn == nil {
		return false
	}
	obj := funcObject(fn)
	if obj == nil || obj.Pkg() == nil {
		return false
	}
	name := obj.Name()
	if obj.Pkg().Path() == kube.PatcherPkgPath {
		return name == "Fetch" || name == "FetchWithStatus"
	}
	return strings.HasPrefix(name, "Fetch") && generatedConstructor.MatchString(name) && returnsGeneratedPatcher(fn.Signature)
}

// fetchedInto is the object a Fetch<Kind>StatusPatcherInto(ctx, c, key,
// obj, ...) call reads into.
func fetchedInto(c *ssa.CallCommon) (ssa.Value, bool) {
	fn := c.StaticCallee()
	if fn == nil || len(c.Args) < 4 || !isFetchConstructor(c) {
		return nil, false
	}
	obj := funcObject(fn)
	if !strings.HasSuffix(obj.Name(), patcherSuffix+"Into") {
		return nil, false
	}
	return c.Args[3], true
}

// objectCalls returns the calls in fn of the Object method of the patcher
// p: the patcher's object.
func (rp *replayer) objectCalls(fn *ssa.Function, p ssa.Value) []ssa.Value {
	var out []ssa.Value
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || calledName(call.Common()) != "Object" {
				continue
			}
			recv := receiver(call.Common())
			if recv != nil && slices.Contains(rp.leaves(recv), p) {
				out = append(out, call)
			}
		}
	}
	return out
}

// capturedStatus finds in fn a store to f's status (obj.Status = v, or
// obj.Status.F = v) after its re-read, or a call updating it in place
// (meta.SetStatusCondition(&obj.Status.Conditions, c)), whose value is
// replayed: a captured object of the written type or whole status, or a
// value computed from an object read before the re-read (see
// staleSource), and says which.
func (rp *replayer) capturedStatus(fn *ssa.Function, f fresh) replayed {
	if len(f.objs) == 0 {
		return replayed{}
	}
	after := func(instr ssa.Instruction) bool {
		return (f.reread == nil || f.reread.Parent() != instr.Parent() || reaches(f.reread, instr)) &&
			(f.write == nil || f.write.Parent() != instr.Parent() || reaches(instr, f.write))
	}
	found := func(src stale, at token.Pos) replayed {
		r := replayed{why: replayedWhy(src), assign: at}
		if f.reread != nil {
			r.reread = f.reread.Pos()
		}
		return r
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			fa, ok := st.Addr.(*ssa.FieldAddr)
			if !ok || !throughStatus(fa) || !f.is(rp.fieldRoot(fa)) || !after(st) {
				continue
			}
			if name, ok := rp.capturedFrom(st.Val, f, fa); ok {
				return found(stale{object: name}, st.Pos())
			}
			if src, ok := newStaleSource(rp.tracer, f, st).of(st.Val); ok {
				return found(src, st.Pos())
			}
		}
	}
	for _, a := range rp.statusArgsOf(fn, f) {
		if !after(a.call) {
			continue
		}
		if src, ok := newStaleSource(rp.tracer, f, a.call).of(a.val); ok {
			return found(src, a.call.Pos())
		}
	}
	return replayed{}
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
func (rp *replayer) capturedFrom(v ssa.Value, f fresh, addr *ssa.FieldAddr) (string, bool) {
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
			if f.is(x) || f.is(root) {
				return "", false
			}
			if sameObjectType(x.Type(), f.objs[0].Type()) || wholeStatus {
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
