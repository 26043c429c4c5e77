package lint

import (
	"fmt"
	"go/types"
	"slices"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint/internal/migrate"
	"golang.org/x/tools/go/ssa"
)

// A merge patch sends the difference between its base and the object at
// the write. A base copied from the object after the status changes, with
// no change between the copy and the write (client.MergeFrom(obj.DeepCopy())
// at the write, kubebuilder users' most common slip), sends no status at
// all: `{}`, or with the lock only the resourceVersion, which stores
// nothing and may conflict. The write is neither blind nor optimistic: it
// is empty, and the lock is no fix for it. The facts are the function's
// own: the copy and the write are in one function, and any change of the
// status, or call given the object, that may run between them leaves the
// verdict to the patch's kind (Exact or Unknown).

// lateBase returns the empty verdict of the patch made by mk (MergeFrom,
// MergeFromWithOptions, StrategicMergeFrom) for w when its base is a
// DeepCopy of w's object taken after a status change of it in the
// function, with nothing that may change or re-read the object between
// the copy and the write.
// lock is the patch's own verdict: optimistic when it sends the
// resourceVersion, blind when not, unresolved when its options are not
// traced.
func (cl *classifier) lateBase(w *write, mk *ssa.CallCommon, lock verdict) (result, bool) {
	if w.instr == nil || len(w.args) < 2 || len(mk.Args) == 0 {
		return result{}, false
	}
	switch w.instr.(type) {
	case *ssa.Defer, *ssa.Go:
		return result{}, false // it sends what changes until it runs
	}
	fn := w.instr.Parent()
	obj := cl.identity(w.args[1])
	var base ssa.Instruction
	for _, leaf := range cl.leaves(mk.Args[0]) {
		c, ok := leaf.(*ssa.Call)
		if !ok || c.Parent() != fn || !strings.HasPrefix(calledName(c.Common()), "DeepCopy") {
			return result{}, false
		}
		if recv := receiver(c.Common()); recv == nil || cl.identity(recv) != obj || base != nil && base != c {
			return result{}, false
		}
		base = c
	}
	if base == nil {
		return result{}, false
	}
	// A path that runs obj's definition again (&list.Items[i] in a
	// loop's body) reaches another object: the next item's change is not
	// this one's, before or after its base.
	def, _ := obj.(ssa.Instruction)
	within := func(a, b ssa.Instruction) bool { return reachesAvoiding(a, b, def) }
	changes, takes := cl.objectEvents(fn, obj, base, w.instr)
	for _, k := range append(changes, takes...) {
		if within(base, k) && within(k, w.instr) {
			return result{}, false // something may change the object between
		}
	}
	var last ssa.Instruction
	for _, c := range changes {
		if !within(c, base) || within(base, c) {
			continue
		}
		superseded := false
		for _, k := range takes {
			superseded = superseded || within(c, k) && within(k, base)
		}
		if !superseded && (last == nil || c.Pos() > last.Pos()) {
			last = c
		}
	}
	if last == nil {
		return result{}, false
	}
	what := "sends no status"
	switch lock {
	case blind:
		what = "sends nothing"
	case optimistic:
		what = "sends only the resourceVersion"
	}
	return result{empty, fmt.Sprintf("this patch %s: the base is taken after the status changes at line %d; take it before them, or use the generated patcher",
		what, fn.Prog.Fset.Position(last.Pos()).Line)}, true
}

// objectEvents returns, in fn, the instructions that change obj's status
// (a store through obj.Status, a call given the address of a status
// field) and the calls given obj itself (a Get, a write, a helper),
// except getters and copies of it (a method called on it whose name
// starts with Get or DeepCopy) and the instructions skip.
func (cl *classifier) objectEvents(fn *ssa.Function, obj ssa.Value, skip ...ssa.Instruction) (changes, takes []ssa.Instruction) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if slices.Contains(skip, instr) {
				continue
			}
			switch instr := instr.(type) {
			case *ssa.Store:
				if fa, ok := instr.Addr.(*ssa.FieldAddr); ok && throughStatus(fa) && cl.fieldRoot(fa) == obj {
					changes = append(changes, instr)
				}
			case ssa.CallInstruction:
				c := instr.Common()
				if changesStatusOf(cl.tracer, c, obj) || cl.statusOnlyCall(c, obj) {
					changes = append(changes, instr)
					continue
				}
				recv := receiver(c)
				name := calledName(c)
				for i, a := range c.Args {
					if cl.identity(a) != obj {
						continue
					}
					getter := recv != nil && (c.IsInvoke() || i == 0) && (strings.HasPrefix(name, "Get") || strings.HasPrefix(name, "DeepCopy"))
					if !getter {
						takes = append(takes, instr)
						break
					}
				}
				if c.IsInvoke() && cl.identity(c.Value) == obj && !strings.HasPrefix(name, "Get") && !strings.HasPrefix(name, "DeepCopy") {
					takes = append(takes, instr)
				}
			}
		}
	}
	return changes, takes
}

// statusOnlyCall reports whether the call is given obj only where its
// callee's ParamsFact says it changes at most the status: a function's
// StatusOnly parameter (markReady(obj)), a method's receiver of Recv
// "statusOnly" (obj.SetCondition(c)). Such a call is a status change,
// as a store through obj.Status, for a base taken after it; one that
// writes it too sends what it changed, and the patch after it still
// sends none of it.
func (cl *classifier) statusOnlyCall(c *ssa.CallCommon, obj ssa.Value) bool {
	callee := c.StaticCallee()
	if cl.pass == nil || callee == nil || callee.Signature.Variadic() {
		return false
	}
	fn, ok := callee.Object().(*types.Func)
	var fact migrate.ParamsFact
	if !ok || !cl.pass.ImportObjectFact(fn.Origin(), &fact) {
		return false
	}
	if callee.Signature.Recv() == nil && fn.Pkg() == cl.pkg && cl.writesStatus(callee, 0) {
		// A base after a helper's write of the status is right: that
		// write stored the change. One of another package that writes
		// has no StatusOnly (its uses are judged as a callee's, where a
		// write is refused), as -fix's statusOnlyChange reads it.
		return false
	}
	// Given the object, it must change at most its status (StatusOnly,
	// Recv "statusOnly") and change it somewhere (Changes, RecvChanges:
	// statuschange.go), not only read it.
	args, given := c.Args, false
	if callee.Signature.Recv() != nil && len(args) > 0 {
		if cl.identity(args[0]) == obj {
			if fact.Recv != "statusOnly" {
				return false
			}
			given = given || fact.RecvChanges
		}
		args = args[1:]
	}
	for i, a := range args {
		if cl.identity(a) == obj {
			if !slices.Contains(fact.StatusOnly, i) {
				return false
			}
			given = given || slices.Contains(fact.Changes, i)
		}
	}
	return given
}

// writesStatus reports whether fn, or a function of the package it calls
// (as deep as -fix's localStatusWrite follows a chain, then taken to),
// holds a status write.
func (cl *classifier) writesStatus(fn *ssa.Function, depth int) bool {
	if cl.writers[fn] || depth > migrate.MaxChainDepth {
		return true
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok {
				if g := call.Common().StaticCallee(); g != nil && g != fn && g.Package() == fn.Package() && cl.writesStatus(g, depth+1) {
					return true
				}
			}
		}
	}
	for _, anon := range fn.AnonFuncs {
		if cl.writesStatus(anon, depth+1) {
			return true
		}
	}
	return false
}

// changesStatusOf reports whether the call is given the address of a
// status field of obj (meta.SetStatusCondition(&obj.Status.Conditions, c)).
func changesStatusOf(t *tracer, c *ssa.CallCommon, obj ssa.Value) bool {
	for _, a := range c.Args {
		if fa, ok := a.(*ssa.FieldAddr); ok && throughStatus(fa) && t.fieldRoot(fa) == obj {
			return true
		}
	}
	return false
}

// reachesAvoiding reports whether a path from a reaches b without running
// def (an instruction of their function) on the way; reaches when def is
// nil or in another function.
func reachesAvoiding(a, b, def ssa.Instruction) bool {
	if def == nil || def.Block() == nil || a.Block() == nil || def.Parent() != a.Parent() {
		return reaches(a, b)
	}
	ab, bb := a.Block(), b.Block()
	if bb == nil || ab.Parent() != bb.Parent() {
		return false
	}
	// walk runs the instructions of blk from i: true at b, false at def.
	walk := func(blk *ssa.BasicBlock, i int) (found, cut bool) {
		for _, instr := range blk.Instrs[i:] {
			switch instr {
			case b:
				return true, true
			case def:
				return false, true
			}
		}
		return false, false
	}
	i := slices.Index(ab.Instrs, a)
	if found, cut := walk(ab, i+1); cut {
		return found
	}
	seen := map[*ssa.BasicBlock]bool{}
	stack := append([]*ssa.BasicBlock(nil), ab.Succs...)
	for len(stack) > 0 {
		blk := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[blk] {
			continue
		}
		seen[blk] = true
		found, cut := walk(blk, 0)
		if found {
			return true
		}
		if !cut {
			stack = append(stack, blk.Succs...)
		}
	}
	return false
}
