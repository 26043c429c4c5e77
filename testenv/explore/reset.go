package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// The reset between two schedules on a server: every object the previous
// schedule's book holds is deleted, finalizers removed first, so that the
// next schedule starts from the same state (the scenario's Objects, made
// anew) with the same names.
//
// The book says what to undo: an object whose newest version is absent is
// gone (every write of the schedule went through the explorer's clients
// and is in the book), and one whose newest version is present is deleted
// under the precondition that the server still holds that version (its
// resourceVersion), so the book's finalizers are the server's: a
// finalizer-free version is gone after one request, where reading it
// first took two. A server that holds another version (a 409: a write the
// book does not know of) gets the read-first reset. Namespaces always get
// it (their deletion needs the finalize subresource).
//
// The objects are reset at once (resetWorkers requests in flight), as no
// object's reset depends on another's: a schedule's time goes on
// requests, and a server answers several at once on as many cores. Not a
// Namespace: it is reset after every other object, the objects in it
// first (a namespace gone, admission refuses the finalizers' removal of
// an object left in it).
//
// After the reset none of the objects exists: the next schedule's book
// records each as absent when it first needs it, without reading it
// (book.Book.SetGone), unless Scenario.BeginSchedule, which may write
// anything, ran in between. An object stays absent until a schedule's
// book meets it again (stillGone): every write goes through the
// explorer's clients, so a schedule that writes it meets it, and its
// leftover is the newest one's. Operators read objects they create in
// some schedules only (a child made after a step another schedule does
// not take): without this, the first schedule after one that never met
// such an object read it back from the server, to a 404.

// leftover is an object a schedule's book holds, as the book last saw it.
type leftover struct {
	key book.Key
	// rv is the newest version's resourceVersion, "" when it is absent;
	// finalizers that it has finalizers.
	rv         string
	finalizers bool
	// kindRV is the newest revision the schedule knew of the object's
	// kind (listfresh.go), kindUnsure that a write of the kind may have
	// stored what the book does not hold.
	kindRV     uint64
	kindUnsure bool
	// carried: not of the previous schedule's book, but one an earlier
	// reset deleted and no schedule met since (stillGone).
	carried bool
}

// leftovers are the objects r's book holds, each at its newest version.
func leftovers(r *run) []leftover {
	out := make([]leftover, 0, len(r.book.Keys()))
	for _, k := range r.book.Keys() {
		h := r.book.History(k)
		f := r.cache.lists[k.GVK.GroupKind()]
		l := leftover{key: k, kindRV: f.rv, kindUnsure: f.unsure || f.aside}
		if v := h.Versions[h.Newest()]; v != nil {
			l.rv = h.RVs[h.Newest()]
			l.finalizers = len((&unstructured.Unstructured{Object: v}).GetFinalizers()) > 0
		}
		out = append(out, l)
	}
	return out
}

// resetWorkers bounds the reset's requests in flight.
const resetWorkers = 8

// resetAll resets every object of left: the Namespaces last, each batch
// at once. The error is the first object's, in left's order.
func (b *serverBackend) resetAll(ctx context.Context, left []leftover) error {
	var objs, namespaces []leftover
	for _, l := range left {
		if l.key.IsNamespace() {
			namespaces = append(namespaces, l)
		} else if l.rv != "" || l.kindUnsure {
			objs = append(objs, l) // not one the book saw absent last, surely
		}
	}
	for _, batch := range [][]leftover{objs, namespaces} {
		errs := make([]error, len(batch))
		sem := make(chan struct{}, resetWorkers)
		var wg sync.WaitGroup
		for i, l := range batch {
			sem <- struct{}{}
			wg.Add(1)
			go func() {
				defer func() { <-sem; wg.Done() }()
				errs[i] = b.reset(ctx, l)
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// reset deletes l's object: by the book's version where the server still
// holds it, otherwise as read from the server.
func (b *serverBackend) reset(ctx context.Context, l leftover) error {
	switch {
	case l.key.IsNamespace():
		return b.resetRead(ctx, l.key)
	case l.rv == "" && l.kindUnsure:
		// The book saw it absent last, but a write of its kind may have
		// stored what the book does not hold (a create whose answer it
		// did not take): as the server holds it.
		return b.resetRead(ctx, l.key)
	case l.rv == "":
		return nil // gone: the book saw it absent last
	}
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(l.key.GVK)
	u.SetNamespace(l.key.NN.Namespace)
	u.SetName(l.key.NN.Name)
	rv := l.rv
	if l.finalizers {
		// resourceVersion in a merge patch is a precondition.
		patch := client.RawPatch(types.MergePatchType, fmt.Appendf(nil, `{"metadata":{"finalizers":null,"resourceVersion":%q}}`, rv))
		err := b.c.Patch(ctx, u, patch)
		switch {
		case apierrors.IsNotFound(err):
			return nil
		case apierrors.IsConflict(err):
			return b.resetRead(ctx, l.key)
		case err != nil:
			return fmt.Errorf("explore: reset %s: removing finalizers: %w", l.key, err)
		}
		rv = u.GetResourceVersion()
	}
	err := b.c.Delete(ctx, u, client.PropagationPolicy(metav1.DeletePropagationBackground), client.Preconditions{ResourceVersion: &rv})
	switch {
	case err == nil, apierrors.IsNotFound(err):
		return nil
	case apierrors.IsConflict(err):
		return b.resetRead(ctx, l.key)
	}
	return fmt.Errorf("explore: reset %s: %w", l.key, err)
}

// resetRead deletes k's object as the server holds it: read, finalizers
// removed, deleted.
func (b *serverBackend) resetRead(ctx context.Context, k book.Key) error {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(k.GVK)
	if err := b.c.Get(ctx, k.NN, u); apierrors.IsNotFound(err) {
		return nil
	} else if err != nil {
		return fmt.Errorf("explore: reset %s: %w", k, err)
	}
	if len(u.GetFinalizers()) > 0 {
		patch := client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`))
		if err := b.c.Patch(ctx, u, patch); client.IgnoreNotFound(err) != nil {
			return fmt.Errorf("explore: reset %s: removing finalizers: %w", k, err)
		}
	}
	// In the background: a kind whose deletion defaults to orphaning
	// its dependents (batch/v1 Jobs) would get the orphan finalizer,
	// which only a garbage collector removes, and stay terminating
	// into the next schedule. (Dependents are reset one by one, as
	// every object a schedule wrote.)
	if err := b.c.Delete(ctx, u, client.PropagationPolicy(metav1.DeletePropagationBackground)); client.IgnoreNotFound(err) != nil {
		return fmt.Errorf("explore: reset %s: %w", k, err)
	}
	if k.IsNamespace() {
		return b.finalizeNamespace(ctx, k)
	}
	return nil
}

// finalizeNamespace does what the namespace controller, which no test
// server runs, does for a deleted Namespace: it clears spec.finalizers
// through the finalize subresource and deletes it again, so that it is
// gone, not left Terminating (and the next schedule can create it again).
// Objects in it are reset one by one, as every object a schedule wrote.
func (b *serverBackend) finalizeNamespace(ctx context.Context, k book.Key) error {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(k.GVK)
	if err := b.c.Get(ctx, k.NN, u); apierrors.IsNotFound(err) {
		return nil
	} else if err != nil {
		return fmt.Errorf("explore: reset %s: %w", k, err)
	}
	if u.GetDeletionTimestamp() == nil {
		return fmt.Errorf("explore: reset %s: still there, not being deleted, after its deletion", k)
	}
	unstructured.RemoveNestedField(u.Object, "spec", "finalizers")
	if err := b.c.SubResource("finalize").Update(ctx, u); client.IgnoreNotFound(err) != nil {
		return fmt.Errorf("explore: reset %s: clearing spec.finalizers: %w", k, err)
	}
	if err := b.c.Delete(ctx, u); client.IgnoreNotFound(err) != nil {
		return fmt.Errorf("explore: reset %s: deleting it once finalized: %w", k, err)
	}
	return nil
}

// create makes obj as the typed client sends it (its JSON), as an
// unstructured object, so that the answer is decoded as a read's: the
// version the create stored, which the book records without reading it.
func (b *serverBackend) create(ctx context.Context, c client.Client, obj client.Object) (*unstructured.Unstructured, error) {
	gvk, err := apiutil.GVKForObject(obj, c.Scheme())
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	u := &unstructured.Unstructured{}
	if err := utiljson.Unmarshal(data, &u.Object); err != nil {
		return nil, err
	}
	u.SetGroupVersionKind(gvk)
	u.SetResourceVersion("")
	if err := c.Create(ctx, u); err != nil {
		return nil, err
	}
	return u, nil
}

// resetGone are the objects of left that no longer exist once the backend
// has reset them: all but Namespaces (the namespace's finalize may leave
// one Terminating on a server that answers it so), which are read again.
func resetGone(left []leftover) map[book.Key]bool {
	gone := map[book.Key]bool{}
	for _, l := range left {
		if !l.key.IsNamespace() {
			gone[l.key] = true
		}
	}
	return gone
}

// stillGone are the objects of left, which the reset has deleted, as
// leftovers of the next schedule: absent, with no version to delete and
// no revision of their kind (afterReset skips them), each once. Not a
// Namespace, which the reset always reads again (resetGone).
func stillGone(left []leftover) []leftover {
	seen := map[book.Key]bool{}
	var out []leftover
	for _, l := range left {
		if l.key.IsNamespace() || seen[l.key] {
			continue
		}
		seen[l.key] = true
		out = append(out, leftover{key: l.key, carried: true})
	}
	return out
}

// After the reset, the first List of a scope. A List of a kind the
// schedule has not written yet asks for the newest (listfresh.go), which
// waits for the kind's watch cache to reach etcd's revision: KubeRay's
// first Lists of Pods and of Services, 10 to 12 ms each a schedule, where
// a List at least as new as a revision the cache holds takes 2 to 3.
//
// The reset deleted every object the previous schedule's book held. Of a
// kind whose every write in that schedule the book holds (none whose
// answer left it unsure), with R the newest revision the schedule knew of
// the kind (its writes' answers, its Lists), an object the server holds
// in a List's scope now was in it at R: every write of the kind after R
// (the reset's finalizer removals and deletions, the schedule's deletions
// whose answer names no revision) removes an object or marks it deleted,
// and moves none into a scope. So a List at least as new as R that is
// empty is what a List of the newest holds. One that is not (an object
// the reset could not delete, one the book never held, a deletion the
// cache has not reached) is set aside, and the List asks for the newest.
// The empty List is no floor for the kind: a deletion after R may not be
// in it, and another scope checks again. As the floor, this holds for
// writes through the explorer's clients and the reset; a writer outside
// them (listfresh.go) is outside it.

// afterReset seeds the schedule's kinds with the previous schedule's
// newest revisions, from left, what the reset deleted.
func (l listsSeen) afterReset(left []leftover) {
	unsure := map[schema.GroupKind]bool{}
	for _, x := range left {
		if x.carried {
			continue // not deleted by this reset: no revision of its kind
		}
		gk := x.key.GVK.GroupKind()
		unsure[gk] = unsure[gk] || x.kindUnsure || x.kindRV == 0
		f := l[gk]
		f.reset = max(f.reset, x.kindRV)
		l[gk] = f
	}
	for gk, u := range unsure {
		if u {
			delete(l, gk)
		}
	}
}

// sinceReset is the revision a List of gk that the schedule has neither
// written nor listed yet may check the reset's emptiness at, "" for none.
func (l listsSeen) sinceReset(gk schema.GroupKind) string {
	f := l[gk]
	if f.reset == 0 || f.rv != 0 || f.unknown || f.aside || f.unsure {
		return ""
	}
	return strconv.FormatUint(f.reset, 10)
}
