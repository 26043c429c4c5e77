package reset

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
)

// The reset between two schedules on a server: every object the previous
// schedule's book holds is deleted, finalizers removed first, so that the
// next schedule starts from the same state (the scenario's Objects, made
// anew) with the same names; but an object that was there before the
// search, which stays as it was (Untouched) or is restored to what it
// was when the search began (restore.go).
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
// The objects are reset at once (workers requests in flight), as no
// object's reset depends on another's: a schedule's time goes on
// requests, and a server answers several at once on as many cores. Not a
// Namespace: it is reset after every other object, the objects in it
// first (a namespace gone, admission refuses the finalizers' removal of
// an object left in it); one to restore, before every other object, so
// that what is made again in it can be.
//
// After the reset none of the objects it deleted exists (one restored is
// there, and the next book reads it): the next schedule's book
// records each as absent when it first needs it, without reading it
// (book.Book.SetGone, Gone), unless Scenario.BeginSchedule, which may write
// anything, ran in between. An object stays absent until a schedule's
// book meets it again (StillGone): every write goes through the
// explorer's clients, so a schedule that writes it meets it, and its
// leftover is the newest one's. Operators read objects they create in
// some schedules only (a child made after a step another schedule does
// not take): without this, the first schedule after one that never met
// such an object read it back from the server, to a 404.

// Leftover is an object a schedule's book holds, as the book last saw it.
type Leftover struct {
	Key book.Key
	// RV is the newest version's resourceVersion, "" when it is absent;
	// Finalizers that it has finalizers.
	RV         string
	Finalizers bool
	// KindRV is the newest revision the schedule knew of the object's
	// kind (informers.Floors), KindUnsure that a write of the kind may
	// have stored what the book does not hold.
	KindRV     uint64
	KindUnsure bool
	// Carried: not of the previous schedule's book, but one an earlier
	// reset deleted and no schedule met since (StillGone).
	Carried bool
	// Start is the object as it was when the search began, for one there
	// before it (Before): the reset restores it to Start; nil: it
	// deletes it.
	Start map[string]any
}

// Leftovers are the objects b holds, each at its newest version; kind is
// what the schedule knew of a kind's newest revision (informers.Floors).
// One there before the search began (before, which notes those b met
// first) is restored (Start), or left when the schedule left it as it
// was (Untouched).
func Leftovers(b *book.Book, kind func(schema.GroupKind) (rv uint64, unsure bool), before *Before) []Leftover {
	out := make([]Leftover, 0, len(b.Keys()))
	for _, k := range b.Keys() {
		h := b.History(k)
		rv, unsure := kind(k.GVK.GroupKind())
		before.note(h)
		start := before.Start[k]
		if !unsure && Untouched(h, start) {
			continue
		}
		l := Leftover{Key: k, KindRV: rv, KindUnsure: unsure, Start: start}
		if v := h.Versions[h.Newest()]; v != nil {
			l.RV = h.RVs[h.Newest()]
			l.Finalizers = len((&unstructured.Unstructured{Object: v}).GetFinalizers()) > 0
		}
		out = append(out, l)
	}
	return out
}

// workers bounds the reset's requests in flight.
const workers = 8

// All resets every object of left through c: the Namespaces there before
// the search restored first, then the other objects, deleted or restored,
// then the Namespaces deleted, each batch at once. The error is the
// first object's, in left's order.
func All(ctx context.Context, c client.Client, left []Leftover) error {
	b := server{c: c}
	var restoredNS, objs, namespaces []Leftover
	// lastStart is, for each object to restore, its last leftover with a
	// Start: it is restored once, as that one says.
	lastStart := map[book.Key]int{}
	for i, l := range left {
		if l.Start != nil {
			lastStart[l.Key] = i
		}
	}
	for i, l := range left {
		j, restore := lastStart[l.Key]
		switch {
		case restore:
			if i != j {
				continue
			}
			if l.Key.IsNamespace() {
				restoredNS = append(restoredNS, l)
			} else {
				objs = append(objs, l)
			}
		case l.Key.IsNamespace():
			namespaces = append(namespaces, l)
		case l.RV != "" || l.KindUnsure:
			objs = append(objs, l) // not one the book saw absent last, surely
		}
	}
	for _, batch := range [][]Leftover{restoredNS, objs, namespaces} {
		errs := make([]error, len(batch))
		sem := make(chan struct{}, workers)
		var wg sync.WaitGroup
		for i, l := range batch {
			sem <- struct{}{}
			wg.Add(1)
			go func() {
				defer func() { <-sem; wg.Done() }()
				if l.Start != nil {
					errs[i] = b.restore(ctx, l)
				} else {
					errs[i] = b.reset(ctx, l)
				}
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

// deleteNow are the options of a reset's delete (and more), so that an
// object without finalizers is gone when the delete answers, not left
// being deleted into the next schedule (a Namespace is not: its deletion
// leaves it Terminating until finalizeNamespace clears it): in the
// background, since a kind whose deletion defaults to orphaning its
// dependents (batch/v1 Jobs) would get the orphan finalizer, which only a
// garbage collector removes (dependents are reset one by one, as every
// object a schedule wrote); with no grace period, since a Pod bound to a
// node is otherwise deleted gracefully, given a deletionTimestamp and kept
// until its kubelet, which no test server runs, ends it
// (TestLostWriteOnAPodBeingDeleted). On a cluster that runs kubelets
// (explore.Remote takes any client), a grace-0 delete of a Pod is a force
// delete: the Pod is gone from the API at once, while its containers may
// run on until the kubelet notices.
func deleteNow(more ...client.DeleteOption) []client.DeleteOption {
	return append([]client.DeleteOption{client.PropagationPolicy(metav1.DeletePropagationBackground), client.GracePeriodSeconds(0)}, more...)
}

// server is the server a reset deletes on.
type server struct{ c client.Client }

// reset deletes l's object: by the book's version where the server still
// holds it, otherwise as read from the server.
func (b server) reset(ctx context.Context, l Leftover) error {
	switch {
	case l.Key.IsNamespace():
		return b.resetRead(ctx, l.Key)
	case l.RV == "" && l.KindUnsure:
		// The book saw it absent last, but a write of its kind may have
		// stored what the book does not hold (a create whose answer it
		// did not take): as the server holds it.
		return b.resetRead(ctx, l.Key)
	case l.RV == "":
		return nil // gone: the book saw it absent last
	}
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(l.Key.GVK)
	u.SetNamespace(l.Key.NN.Namespace)
	u.SetName(l.Key.NN.Name)
	rv := l.RV
	if l.Finalizers {
		// resourceVersion in a merge patch is a precondition.
		patch := client.RawPatch(types.MergePatchType, fmt.Appendf(nil, `{"metadata":{"finalizers":null,"resourceVersion":%q}}`, rv))
		err := b.c.Patch(ctx, u, patch)
		switch {
		case apierrors.IsNotFound(err):
			return nil
		case apierrors.IsConflict(err):
			return b.resetRead(ctx, l.Key)
		case err != nil:
			return fmt.Errorf("explore: reset %s: removing finalizers: %w", l.Key, err)
		}
		rv = u.GetResourceVersion()
	}
	err := b.c.Delete(ctx, u, deleteNow(client.Preconditions{ResourceVersion: &rv})...)
	switch {
	case err == nil, apierrors.IsNotFound(err):
		return nil
	case apierrors.IsConflict(err):
		return b.resetRead(ctx, l.Key)
	}
	return fmt.Errorf("explore: reset %s: %w", l.Key, err)
}

// resetRead deletes k's object as the server holds it: read, finalizers
// removed, deleted.
func (b server) resetRead(ctx context.Context, k book.Key) error {
	u, err := b.read(ctx, k)
	if u == nil || err != nil {
		return err
	}
	if len(u.GetFinalizers()) > 0 {
		patch := client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`))
		if err := b.c.Patch(ctx, u, patch); client.IgnoreNotFound(err) != nil {
			return fmt.Errorf("explore: reset %s: removing finalizers: %w", k, err)
		}
	}
	if err := b.c.Delete(ctx, u, deleteNow()...); client.IgnoreNotFound(err) != nil {
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
func (b server) finalizeNamespace(ctx context.Context, k book.Key) error {
	u, err := b.read(ctx, k)
	if u == nil || err != nil {
		return err
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

// Create makes obj through c as the typed client sends it (its JSON), as
// an unstructured object, so that the answer is decoded as a read's: the
// version the create stored, which the book records without reading it.
func Create(ctx context.Context, c client.Client, obj client.Object) (*unstructured.Unstructured, error) {
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

// Gone are the objects of left that no longer exist once the backend has
// reset them: all but Namespaces (the namespace's finalize may leave one
// Terminating on a server that answers it so), which are read again, and
// those restored (Start), which are there.
func Gone(left []Leftover) map[book.Key]bool {
	gone := map[book.Key]bool{}
	for _, l := range left {
		if !l.Key.IsNamespace() {
			gone[l.Key] = true
		}
	}
	for _, l := range left {
		if l.Start != nil {
			delete(gone, l.Key)
		}
	}
	return gone
}

// StillGone are the objects of left, which the reset has deleted, as
// leftovers of the next schedule: absent, with no version to delete and
// no revision of their kind (Floors.AfterReset skips them), each once.
// Not a Namespace, which the reset always reads again (Gone), nor one
// restored.
func StillGone(left []Leftover) []Leftover {
	seen := map[book.Key]bool{}
	for _, l := range left {
		if l.Start != nil {
			seen[l.Key] = true
		}
	}
	var out []Leftover
	for _, l := range left {
		if l.Key.IsNamespace() || seen[l.Key] {
			continue
		}
		seen[l.Key] = true
		out = append(out, Leftover{Key: l.Key, Carried: true})
	}
	return out
}

// read is k's object as the server holds it, nil if it is absent.
func (b server) read(ctx context.Context, k book.Key) (*unstructured.Unstructured, error) {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(k.GVK)
	if err := b.c.Get(ctx, k.NN, u); apierrors.IsNotFound(err) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("explore: reset %s: %w", k, err)
	}
	return u, nil
}
