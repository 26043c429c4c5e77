package lint

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// A local variable whose address is taken (captured by a closure, &v
// passed) is an Alloc, its values the stores into it (storedInto). A
// store overwritten before the load reads the variable is not its value
// there (ready := !w.Status.Ready; re-read; ready = !w.Status.Ready;
// w.Status.Ready = ready: the first decision never reaches the status).

// allocLoad follows the values v, a load of a local variable, may read:
// the stores into it, less those another store of the variable
// overwrites on every path to v.
func (s *staleSource) allocLoad(v *ssa.UnOp, alloc *ssa.Alloc, next func(ssa.Value) (stale, bool)) (stale, bool) {
	if v.Op != token.MUL || sameObjectType(alloc.Type(), s.objType) {
		return stale{}, false
	}
	dead := overwritten(alloc, v)
	for _, val := range s.storedInto(alloc) {
		if dead[val] {
			continue
		}
		if st, ok := next(val); ok {
			return st, true
		}
	}
	return stale{}, false
}

// overwritten returns the values stored into alloc, in load's function,
// whose store cannot reach load without another store into alloc, unless
// a store that can stores the same value.
func overwritten(alloc *ssa.Alloc, load ssa.Instruction) map[ssa.Value]bool {
	refs := alloc.Referrers()
	if refs == nil {
		return nil
	}
	var stores []*ssa.Store
	for _, r := range *refs {
		if st, ok := r.(*ssa.Store); ok && st.Addr == alloc && st.Parent() == load.Parent() {
			stores = append(stores, st)
		}
	}
	dead, live := map[ssa.Value]bool{}, map[ssa.Value]bool{}
	for _, st := range stores {
		killed := false
		for _, k := range stores {
			if k != st && !reachesAvoiding(st, load, k) {
				killed = true
				break
			}
		}
		if killed {
			dead[st.Val] = true
		} else {
			live[st.Val] = true
		}
	}
	for v := range live {
		delete(dead, v)
	}
	return dead
}
