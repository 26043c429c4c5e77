package lint

import "golang.org/x/tools/go/ssa"

// A CreateOrPatch mutate built by a function of the package
// (controllerutil.CreateOrPatch(ctx, c, obj, r.mutate(obj))) is followed
// into the literals it returns (issue 80 (a)); -fix keeps it, the
// literal's statements being the function's.

// returnedMutate follows a mutate a function of the package returns
// (r.mutate(obj) returning func() error {...} over its parameter) into
// the literals it returns, each capturing the parameter given the
// object; not ok when one of them is anything else.
func returnedMutate(call *ssa.Call, root ssa.Value) (mutateChange, bool) {
	cc := call.Common()
	callee := cc.StaticCallee()
	if callee == nil || callee.Pkg == nil || callee.Pkg != call.Parent().Pkg || len(callee.Blocks) == 0 {
		return mutateChange{}, false
	}
	given := map[ssa.Value]bool{}
	for i, a := range cc.Args {
		if r, _ := objectRoot(a); r == root && i < len(callee.Params) {
			given[callee.Params[i]] = true
		}
	}
	var out mutateChange
	found := false
	for _, b := range callee.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) != 1 {
			continue
		}
		for _, leaf := range mutateLeaves(ret.Results[0]) {
			if _, isConst := leaf.(*ssa.Const); isConst {
				continue // nil: no mutate
			}
			mc, ok := leaf.(*ssa.MakeClosure)
			if !ok {
				return mutateChange{}, false
			}
			fn, ok := mc.Fn.(*ssa.Function)
			if !ok || fn.Parent() != callee {
				return mutateChange{}, false
			}
			roots := map[ssa.Value]bool{}
			for i, bnd := range mc.Bindings {
				if i < len(fn.FreeVars) && holdsGiven(bnd, given) {
					roots[fn.FreeVars[i]] = true
				}
			}
			if len(roots) == 0 {
				return mutateChange{}, false
			}
			ch := statusChangeIn(fn, roots, 3)
			if ch.changes() {
				if ch.in == "" {
					ch.in = funcName(callee)
				}
				return ch, true
			}
			if ch.unknown != "" {
				out.unknown = ch.unknown
			}
			found = true
		}
	}
	return out, found
}

// holdsGiven reports whether a literal's binding is one of given (the
// parameters given the object) or the cell every store fills with one.
func holdsGiven(v ssa.Value, given map[ssa.Value]bool) bool {
	if r, _ := objectRoot(v); given[r] {
		return true
	}
	cell, ok := v.(*ssa.Alloc)
	if !ok || cell.Referrers() == nil {
		return false
	}
	stored := false
	for _, in := range *cell.Referrers() {
		if st, ok := in.(*ssa.Store); ok && st.Addr == cell {
			if r, _ := objectRoot(st.Val); !given[r] {
				return false
			}
			stored = true
		}
	}
	return stored
}
