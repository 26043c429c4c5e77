package guard

import (
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// UnsavedVsBoth is the last resort of patcher's unsavedAfterOwnWrite, when
// the state the caller's own write produced cannot be read: a field counts
// when the object cur differs in it from both base and fresh (vsBase and
// vsFresh: NonStatusChanges against each), for labels and annotations key
// by key, for finalizers name by name. A field the caller's own write
// changed and another writer changed again then counts too: the caller
// gets ErrNonStatusChange with nothing sent, where a Conflict would have
// been enough, but nothing is dropped. It may reorder and reuse vsBase.
func UnsavedVsBoth(vsBase, vsFresh []string, cur, base, fresh metav1.Object) []string {
	if len(vsBase) == 0 {
		return nil
	}
	return slices.DeleteFunc(vsBase, func(f string) bool {
		return !slices.Contains(vsFresh, f) || !changedFromBoth(f, cur, base, fresh)
	})
}

// changedFromBoth refines the three-way comparison of a metadata map or
// list: true when some key (or finalizer) of cur differs from both base
// and fresh. Other fields are compared whole: true.
func changedFromBoth(field string, cur, base, fresh metav1.Object) bool {
	switch field {
	case "metadata.labels":
		return mapChangedFromBoth(cur.GetLabels(), base.GetLabels(), fresh.GetLabels())
	case "metadata.annotations":
		return mapChangedFromBoth(cur.GetAnnotations(), base.GetAnnotations(), fresh.GetAnnotations())
	case "metadata.finalizers":
		for _, f := range slices.Concat(cur.GetFinalizers(), base.GetFinalizers(), fresh.GetFinalizers()) {
			in := slices.Contains(cur.GetFinalizers(), f)
			if in != slices.Contains(base.GetFinalizers(), f) && in != slices.Contains(fresh.GetFinalizers(), f) {
				return true
			}
		}
		return false
	}
	return true
}

func mapChangedFromBoth(cur, base, fresh map[string]string) bool {
	differs := func(m map[string]string, k string) bool {
		a, aok := cur[k]
		b, bok := m[k]
		return a != b || aok != bok
	}
	for _, m := range []map[string]string{cur, base, fresh} {
		for k := range m {
			if differs(base, k) && differs(fresh, k) {
				return true
			}
		}
	}
	return false
}
