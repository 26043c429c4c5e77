package lint

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A status decided before a second Get into the same variable (review R3
// of ab0c5e8): what is not a replay though it is loaded before the
// re-read.

// phi follows the edges of v that may carry a value decided before the
// re-read past it: in the re-read's function, an edge from a block the
// re-read does not reach is a path without it (ready := !w.Status.Ready;
// if refresh { c.Get(ctx, key, w); ready = !w.Status.Ready }: the first
// decision is stored only where no re-read ran); see edge for loops.
func (s *staleSource) phi(v *ssa.Phi, next func(ssa.Value) (stale, bool)) (stale, bool) {
	for i, e := range v.Edges {
		if i < len(v.Block().Preds) {
			if st, ok := s.edge(v, v.Block().Preds[i], e, next); ok {
				return st, true
			}
		} else if st, ok := next(e); ok {
			return st, true
		}
	}
	return stale{}, false
}

// identityField reports whether fa is the object's name or namespace:
// the key a re-read of the same object reads by, the same after it.
func identityField(fa *ssa.FieldAddr) bool {
	ptr, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	named, ok := ptr.Elem().(*types.Named)
	if !ok || named.Obj().Name() != "ObjectMeta" {
		return false
	}
	st, ok := named.Underlying().(*types.Struct)
	if !ok || fa.Field >= st.NumFields() {
		return false
	}
	name := st.Field(fa.Field).Name()
	return name == "Name" || name == "Namespace"
}
