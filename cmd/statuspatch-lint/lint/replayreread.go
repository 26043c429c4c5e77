package lint

import (
	"go/token"
	"slices"
	"strconv"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/ssa"
)

// The re-read, and what runs before it, in loops (s97 adversary): a
// loop's turn that reads, decides, reads the same variable again and
// stores the decision replays it every turn, and so does a decision
// carried from the previous turn's read; "before" on every path is false
// in a loop (each instruction reaches the other), so the order is taken
// within a turn: a value is decided before the re-read when a path from
// it runs the re-read and then reaches the status without running it
// again.

// reRead returns the Get in fn that reads obj and may run before at, or
// nil.
func (rp *replayer) reRead(fn *ssa.Function, obj ssa.Value, at ssa.Instruction) ssa.Instruction {
	if fn == nil {
		return nil
	}
	var gets []ssa.Instruction
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok || calledName(call.Common()) != "Get" || !reaches(instr, at) {
				continue
			}
			if slices.ContainsFunc(call.Common().Args, func(a ssa.Value) bool { return rp.identity(a) == obj }) {
				gets = append(gets, instr)
			}
		}
	}
	// Of two Gets into one variable (a read, a status decided from it,
	// the re-read, the decision stored), the re-read is the one every
	// other runs before; in a loop's turn, the one every other dominates.
	for _, order := range []func(a, b ssa.Instruction) bool{before, dominates} {
		for _, g := range gets {
			last := true
			for _, h := range gets {
				last = last && (h == g || order(h, g))
			}
			if last {
				return g
			}
		}
	}
	if len(gets) > 0 {
		return gets[0]
	}
	return nil
}

// before reports whether instruction a runs before b on every path that
// runs both: a may run before b, and b never before a.
func before(a, b ssa.Instruction) bool {
	return reaches(a, b) && !reaches(b, a)
}

// across reports whether def, in the re-read's function, runs before the
// re-read on a path to the point its value is stored into the status:
// the re-read runs after def and the store after the re-read, def not run
// again between. Past a loop's phi the re-read crossed (crossed), any
// load of the object on an edge of it was made before.
func (s *staleSource) across(def ssa.Instruction) bool {
	r := s.fresh.reread
	if r == nil || def.Parent() != r.Parent() {
		return false
	}
	if s.crossed {
		return true
	}
	if s.use == nil || s.use.Parent() != r.Parent() {
		return before(def, r)
	}
	return reachesAvoiding(def, r, def) && reachesAvoiding(r, s.use, def)
}

// calledBefore reports whether v is a method of the fresh object, or of a
// field of it, called before the re-read (gen := w.GetGeneration(), old
// := w.DeepCopy()): the value of the read before, as a field loaded
// before it is (loadedBefore). The name and namespace are the key's.
func (s *staleSource) calledBefore(v ssa.Value) (string, bool) {
	call, ok := v.(*ssa.Call)
	if !ok {
		return "", false
	}
	name := calledName(call.Common())
	recv := receiver(call.Common())
	if recv == nil || name == "GetName" || name == "GetNamespace" {
		return "", false
	}
	root := s.t.identity(recv)
	if fa, ok := root.(*ssa.FieldAddr); ok {
		if identityField(fa) {
			return "", false
		}
		root = s.t.fieldRoot(fa)
	}
	kind := derefNamed(s.objType).Obj().Name()
	if p, ok := root.(*ssa.Parameter); ok && s.site != nil && call.Parent() != s.site.Parent() &&
		s.boundFresh(p) && s.across(s.site) {
		// w.GetGeneration() in a helper the re-read's function calls
		// before the re-read: its value is the read before's.
		line := s.fresh.reread.Parent().Prog.Fset.Position(s.site.Pos()).Line
		return "the " + kind + "'s " + name + " in the call at line " + strconv.Itoa(line), true
	}
	if !s.fresh.is(root) || !s.across(call) {
		return "", false
	}
	line := s.fresh.reread.Parent().Prog.Fset.Position(call.Pos()).Line
	return "the " + kind + "'s " + name + " at line " + strconv.Itoa(line), true
}

// edge walks the value a phi of the re-read's function takes from its
// predecessor pred: a phi the re-read runs after on the way to the store
// (a decision carried from a loop's previous turn) crosses it; otherwise
// the edge's value must cross it on the way to pred.
func (s *staleSource) edge(p *ssa.Phi, pred *ssa.BasicBlock, v ssa.Value, next func(ssa.Value) (stale, bool)) (stale, bool) {
	r := s.fresh.reread
	if r == nil || p.Parent() != r.Parent() || s.crossed || len(pred.Instrs) == 0 {
		return next(v)
	}
	use, crossed := s.use, s.crossed
	defer func() { s.use, s.crossed = use, crossed }()
	end := pred.Instrs[len(pred.Instrs)-1]
	switch {
	case s.across(p) && s.sameKey(p):
		s.crossed = true
	case !reaches(r, end):
		return stale{}, false // a path without the re-read
	default:
		s.use = end
	}
	return next(v)
}

// sameKey reports whether the re-read reads by a key that the cycle
// through p, a loop's phi, does not change (a parameter, a variable not
// stored in the loop): each turn reads the same object, so a value
// carried from the turn before is that object's, read before. A key
// taken in the turn (for _, k := range keys) reads another object each
// turn: a value carried from the last one is no replay of this one.
func (s *staleSource) sameKey(p *ssa.Phi) bool {
	call, ok := s.fresh.reread.(ssa.CallInstruction)
	if !ok {
		return false
	}
	var key ssa.Value
	args := call.Common().Args
	for i, a := range args {
		if i > 0 && s.fresh.is(s.t.identity(a)) {
			key = args[i-1]
		}
	}
	inLoop := func(instr ssa.Instruction) bool { return reaches(p, instr) && reaches(instr, p) }
	derefed := false
	for range kube.MaxDepth {
		switch k := key.(type) {
		case nil:
			return false
		case *ssa.Parameter, *ssa.FreeVar, *ssa.Global:
			// a pointer's pointee the turn stores into (key.Name = n) is
			// another key each turn
			return !derefed || !storedThrough(p.Parent(), k, inLoop)
		case *ssa.Const:
			return true
		case *ssa.UnOp:
			derefed = derefed || k.Op == token.MUL
			key = k.X
		case *ssa.FieldAddr:
			key = k.X
		case *ssa.Field:
			key = k.X
		case *ssa.Alloc:
			return !inLoop(k) && !storedIn(k, inLoop)
		default:
			instr, ok := key.(ssa.Instruction)
			return ok && !inLoop(instr)
		}
	}
	return false
}

// storedIn reports whether a store to alloc or a field of it is an
// instruction in.
func storedIn(alloc *ssa.Alloc, in func(ssa.Instruction) bool) bool {
	addrs := []ssa.Value{alloc}
	for i := 0; i < len(addrs) && i < 64; i++ {
		refs := addrs[i].Referrers()
		if refs == nil {
			continue
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.Store:
				if r.Addr == addrs[i] && in(r) {
					return true
				}
			case *ssa.FieldAddr:
				addrs = append(addrs, r)
			}
		}
	}
	return false
}

// at follows a call's results with site, the call of the re-read's
// function they are computed in, when there is none yet.
func (s *staleSource) at(call ssa.Instruction, follow func() (stale, bool)) (stale, bool) {
	r := s.fresh.reread
	if s.site != nil || r == nil || call.Parent() != r.Parent() {
		return follow()
	}
	s.site = call
	defer func() { s.site = nil }()
	return follow()
}

// loadedInCallee reports whether v is a field, loaded in a function of
// the package, of its parameter given the fresh object by a call made
// before the re-read (ready := r.desired(w), then the re-read into w,
// then w.Status.Ready = ready): the read before's value, as a field
// loaded in the re-read's function before it is (loadedBefore).
func (s *staleSource) loadedInCallee(v ssa.Value) (string, bool) {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL || s.site == nil || load.Parent() == s.site.Parent() {
		return "", false
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok || identityField(fa) {
		return "", false
	}
	p, ok := s.t.fieldRoot(fa).(*ssa.Parameter)
	if !ok {
		return "", false
	}
	if !s.boundFresh(p) || !s.across(s.site) {
		return "", false
	}
	kind := derefNamed(s.objType).Obj().Name()
	line := s.fresh.reread.Parent().Prog.Fset.Position(s.site.Pos()).Line
	return "the " + kind + "'s fields read by the call at line " + strconv.Itoa(line), true
}

// boundFresh reports whether p, a parameter of a callee followed, is
// given the fresh object, directly or through the parameters of the
// callers between (r.decide(w) calling r.desired(w): two deep).
func (s *staleSource) boundFresh(p *ssa.Parameter) bool {
	for range kube.MaxDepth {
		b, ok := s.bound[p]
		if !ok {
			return false
		}
		arg := s.t.identity(b.arg)
		if s.fresh.is(arg) {
			return true
		}
		q, ok := arg.(*ssa.Parameter)
		if !ok || q == p {
			return false
		}
		p = q
	}
	return false
}

// storedThrough reports whether a store of fn that is an instruction in
// writes root's pointee or a field or element of it.
func storedThrough(fn *ssa.Function, root ssa.Value, in func(ssa.Instruction) bool) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok || !in(st) {
				continue
			}
			addr := st.Addr
			for range kube.MaxDepth {
				switch a := addr.(type) {
				case *ssa.FieldAddr:
					addr = a.X
					continue
				case *ssa.IndexAddr:
					addr = a.X
					continue
				}
				break
			}
			if addr == root {
				return true
			}
		}
	}
	return false
}
