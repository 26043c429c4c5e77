package judge

import (
	"fmt"
	"slices"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// StuckFinalizer judges a steady state, whose round is steps[first:]
// (every step of the schedule in steps, each with its chosen item): an
// object being deleted that still carries a metadata.finalizers entry a
// reconciler of this schedule added, whose reconcilers' last reconciles
// of it in that round (fresh reads) all returned done and wrote nothing:
// nothing will remove it, and the object is never deleted. forKinds are
// the reconcilers' For kinds.
//
// It stays silent where a reconcile may legitimately wait without a
// requeue for what these servers do not do: while any object of the
// schedule is being deleted and waits on a finalizer no reconciler of the
// schedule added (the garbage collector's foregroundDeletion or orphan,
// the namespace controller's kubernetes in a Namespace's spec.finalizers,
// another controller's, the user's) or on the end of a graceful deletion
// (a Pod's, the kubelet's); while a deletion is still in progress (an
// object of the schedule being deleted whose reconcile in that round asked
// for a requeue or erred: the object may wait for it, linked by a label or
// a name rather than an owner reference); while the object still has a
// dependent (an object whose owner references name its UID, or, without
// UIDs, its group, kind and name: its controllers, the garbage collector
// or kube-controller-manager may be what the reconcile waits for); and
// when that last reconcile read (a Get, an item of a List) a present object
// other than the one it reconciles that the user made, the scenario's
// Objects or an action (deletion protection, "in use" finalizers: the
// object goes when the user deletes what uses it).
func StuckFinalizer(b *book.Book, steps []Step, first int, forKinds []schema.GroupVersionKind) (Failure, bool) {
	j := finalizers{book: b, steps: steps}
	if j.outsidePending() || j.deletionInProgress(first) {
		return Failure{}, false
	}
	for _, k := range b.Keys() {
		h := b.History(k)
		cur := h.Versions[h.Newest()]
		if cur == nil {
			continue
		}
		u := unstructured.Unstructured{Object: cur}
		if u.GetDeletionTimestamp() == nil || len(u.GetFinalizers()) == 0 || j.hasDependent(k, u) {
			continue
		}
		for _, f := range u.GetFinalizers() {
			by := addedBy(h, f)
			if by == 0 || gcFinalizer(f) {
				continue // the scenario's Objects', the garbage collector's
			}
			it := steps[by-1].It
			if it.Action >= 0 || it.Rec < 0 || it.Rec >= len(forKinds) || forKinds[it.Rec] != k.GVK {
				continue // an action's, or a reconciler's of another kind
			}
			last, ok := j.lastReconciles(first, k, it.Rec)
			if !ok {
				continue // waiting (a requeue, an error) or not reconciled
			}
			if j.readUsersObject(last, k) {
				continue // in use by what the user made (deletion protection)
			}
			since := ""
			if d := deletedSince(h); d > 0 {
				since = fmt.Sprintf(" (since step %d)", d)
			}
			return Failure{Object: k.String(), Fields: []string{"metadata.finalizers"}, Message: fmt.Sprintf("%s is being deleted%s and keeps the finalizer %s that %s added: in a steady state %s, with fresh reads, returned done, wrote nothing and asked for no requeue, so nothing will remove it",
				k, since, f, steps[by-1].name(), last.name())}, true
		}
	}
	return Failure{}, false
}

// finalizers is what StuckFinalizer reads: the book and the schedule's
// steps.
type finalizers struct {
	book  *book.Book
	steps []Step
}

// addedBy is the step whose write added finalizer f to h's newest version
// (the first of the versions of the newest's UID that carry it to the
// newest), 0 when no step's write did (the object was created with it, by
// the scenario's Objects, or it was met with it first).
func addedBy(h *book.History, f string) int {
	return h.By[h.WalkBack(h.Newest(), func(o map[string]any) bool {
		return slices.Contains((&unstructured.Unstructured{Object: o}).GetFinalizers(), f)
	})]
}

// deletedSince is the step that set h's newest deletionTimestamp, 0 when
// no step's write did.
func deletedSince(h *book.History) int {
	return h.By[h.WalkBack(h.Newest(), func(o map[string]any) bool {
		return (&unstructured.Unstructured{Object: o}).GetDeletionTimestamp() != nil
	})]
}

// lastReconciles reports the last reconcile of k by reconciler rec in the
// steady round from first, when every reconcile of k in that round
// returned done: none asked for a requeue, erred, panicked or crashed.
func (j finalizers) lastReconciles(first int, k book.Key, rec int) (Step, bool) {
	var last Step
	found := false
	for i := first; i < len(j.steps); i++ {
		it := j.steps[i].It
		if it.Action >= 0 || it.Deliver || it.Key != k {
			continue
		}
		if j.steps[i].Result != "done" {
			return Step{}, false
		}
		if it.Rec == rec {
			last, found = j.steps[i], true
		}
	}
	return last, found
}

// deletionInProgress reports an object of the schedule being deleted that
// a reconcile in the steady round from first did not finish with: it
// asked for a requeue, erred, panicked or crashed.
func (j finalizers) deletionInProgress(first int) bool {
	for i := first; i < len(j.steps); i++ {
		it := j.steps[i].It
		if it.Action >= 0 || it.Deliver || j.steps[i].Result == "done" {
			continue
		}
		h := j.book.History(it.Key)
		if h == nil || h.Versions[h.Newest()] == nil {
			continue
		}
		if (&unstructured.Unstructured{Object: h.Versions[h.Newest()]}).GetDeletionTimestamp() != nil {
			return true
		}
	}
	return false
}

// readUsersObject reports a read of step s, of an object other than self,
// that found it present, in a lifetime (the versions of its UID since its
// last absence) no reconciler's write began: the scenario's Objects, an
// action's create, or one the server held before.
func (j finalizers) readUsersObject(s Step, self book.Key) bool {
	for _, rd := range s.Reads {
		if rd.Missing || rd.Object == self.String() {
			continue
		}
		for _, k := range j.book.Keys() {
			h := j.book.History(k)
			if k.String() != rd.Object || rd.Version < 1 || rd.Version > len(h.Versions) || h.Versions[rd.Version-1] == nil {
				continue
			}
			v := h.WalkBack(rd.Version-1, func(map[string]any) bool { return true })
			if by := h.By[v]; by == 0 || j.steps[by-1].It.Action >= 0 {
				return true
			}
		}
	}
	return false
}

// outsidePending reports an object of the schedule being deleted that
// waits on what no reconciler of the schedule started: a finalizer none of
// them added, a Namespace's spec.finalizers, or, with no finalizer, the
// end of a graceful deletion.
func (j finalizers) outsidePending() bool {
	for _, k := range j.book.Keys() {
		h := j.book.History(k)
		cur := h.Versions[h.Newest()]
		if cur == nil {
			continue
		}
		u := unstructured.Unstructured{Object: cur}
		if u.GetDeletionTimestamp() == nil {
			continue
		}
		if len(u.GetFinalizers()) == 0 {
			return true // a graceful deletion (a Pod's), which the kubelet ends
		}
		if spec, _, _ := unstructured.NestedSlice(cur, "spec", "finalizers"); k.GVK.Group == "" && k.GVK.Kind == "Namespace" && len(spec) > 0 {
			return true
		}
		for _, f := range u.GetFinalizers() {
			if by := addedBy(h, f); by == 0 || j.steps[by-1].It.Action >= 0 || gcFinalizer(f) {
				return true
			}
		}
	}
	return false
}

// gcFinalizer reports a finalizer of the garbage collector, which the
// API server adds to an object deleted with the Foreground or Orphan
// propagation policy, whoever deleted it, and only the garbage collector
// removes.
func gcFinalizer(f string) bool {
	return f == metav1.FinalizerDeleteDependents || f == metav1.FinalizerOrphanDependents
}

// hasDependent reports a present object of the schedule whose owner
// references name u (of key k): by its UID, or, where u has none (the
// fake client assigns none), by its group, kind and name, the dependent in
// u's namespace (any, for a cluster-scoped u).
func (j finalizers) hasDependent(k book.Key, u unstructured.Unstructured) bool {
	for _, dk := range j.book.Keys() {
		h := j.book.History(dk)
		cur := h.Versions[h.Newest()]
		if cur == nil {
			continue
		}
		for _, ref := range (&unstructured.Unstructured{Object: cur}).GetOwnerReferences() {
			if u.GetUID() != "" {
				if ref.UID == u.GetUID() {
					return true
				}
				continue
			}
			gv, err := schema.ParseGroupVersion(ref.APIVersion)
			if err == nil && gv.Group == k.GVK.Group && ref.Kind == k.GVK.Kind && ref.Name == k.NN.Name &&
				(k.NN.Namespace == "" || dk.NN.Namespace == k.NN.Namespace) {
				return true
			}
		}
	}
	return false
}
