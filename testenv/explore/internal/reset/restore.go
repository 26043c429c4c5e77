package reset

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
)

// What was there before the search: an object the test made before Run
// (a Namespace trust-manager's Bundle controller lists, a settings object)
// is no schedule's to delete. The reset leaves it when the schedule only
// read it (Untouched) and puts it back as it was when the search began
// when a step wrote it (updated, patched, deleted): every schedule starts
// from the one state the first one started from, whatever the order the
// search meets its schedules in, which a replay does not repeat.
//
// The server chooses a restored object's resourceVersion, and a
// re-created one's UID and creationTimestamp: the next schedule's book
// reads it (it is not Gone), and the judges compare versions with these
// normalised (book.Comparable), naming UIDs by their objects
// (book.Book.ServerLabels), so a restored object is neither a new one nor
// a recreate nor a lost write. Anything else that differs from the start
// (a generation a re-create cannot give back) is an error naming the
// object: the search never runs on another start (Exact or Unknown).

// Before is what was there before a world's search began.
type Before struct {
	// Began is the revision the world's search began at: one past the
	// server's revision before its first schedule wrote anything, its
	// Scenario.BeginSchedule first (what the hook makes is every
	// schedule's, deleted by the reset, not there before), else (a
	// backend with no revision, Fake) the resourceVersion of the first of
	// the scenario's Objects its first schedule created; 0: unknown, and
	// nothing is taken for there before.
	Began uint64
	// Start holds each object there before the search that a schedule's
	// book met, as the first book to meet it read it.
	Start map[book.Key]map[string]any
}

// note records h's object in Start when h is the first history to meet it
// and it was there before the search began: its first version read, not
// written, stored before Began (a server's resourceVersions are one
// revision count).
func (s *Before) note(h *book.History) {
	if s.Began == 0 || len(h.Versions) == 0 || h.Versions[0] == nil || h.By[0] != 0 {
		return
	}
	if _, ok := s.Start[h.Key]; ok {
		return
	}
	if rv, err := strconv.ParseUint(h.RVs[0], 10, 64); err != nil || rv >= s.Began {
		return
	}
	if s.Start == nil {
		s.Start = map[book.Key]map[string]any{}
	}
	s.Start[h.Key] = h.Versions[0]
}

// Untouched reports that h, an object there before the search began as
// start, is as it was: the schedule only read it (every version present,
// By 0), and every version has start's content (book.Comparable: not its
// resourceVersion, UID nor creationTimestamp, which a restore renews).
// The reset leaves it for the next schedule to read.
func Untouched(h *book.History, start map[string]any) bool {
	if start == nil || len(h.Versions) == 0 {
		return false
	}
	want := book.Comparable(start, nil)
	for i, v := range h.Versions {
		if v == nil || h.By[i] != 0 || !reflect.DeepEqual(book.Comparable(v, nil), want) {
			return false
		}
	}
	return true
}

// restoreWait bounds the wait for a deleted object to be gone before its
// re-create, restorePoll the time between two reads.
const (
	restoreWait = 30 * time.Second
	restorePoll = 20 * time.Millisecond
)

// restore puts l's object back as it was when the search began (l.Start),
// as the server holds it now (read: a step's write may have left it
// anywhere). One still there, not being deleted, at start's generation is
// written in place (metadata and spec, then status through its
// subresource); any other (gone, deleted with a finalizer holding it, of
// another generation) is deleted, its finalizers removed first, and made
// again once gone. An object a step marked for deletion cannot be
// un-deleted: its finalizers the step left are removed and it is made
// anew. The result is checked against start.
func (b server) restore(ctx context.Context, l Leftover) error {
	cur, err := b.read(ctx, l.Key)
	if err != nil {
		return err
	}
	want := book.Comparable(l.Start, nil)
	if cur != nil && reflect.DeepEqual(book.Comparable(cur.Object, nil), want) {
		return nil
	}
	start := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(l.Start)}
	if start.GetDeletionTimestamp() != nil {
		return fmt.Errorf("explore: reset %s: cannot restore it as the search began: it was being deleted then", l.Key)
	}
	var got *unstructured.Unstructured
	if cur != nil && cur.GetDeletionTimestamp() == nil && cur.GetGeneration() == start.GetGeneration() {
		got, err = b.update(ctx, l.Key, cur, start)
	} else {
		got, err = b.recreate(ctx, l.Key, cur, start)
	}
	if err != nil {
		return err
	}
	if d := differs(book.Comparable(got.Object, nil), want, ""); d != "" {
		return fmt.Errorf("explore: reset %s: cannot restore it as the search began: %s", l.Key, d)
	}
	return nil
}

// differs names the first field where got and want differ, with both
// values, "" where they do not.
func differs(got, want any, path string) string {
	g, gok := got.(map[string]any)
	w, wok := want.(map[string]any)
	if !gok || !wok {
		if reflect.DeepEqual(got, want) {
			return ""
		}
		return fmt.Sprintf("%s is %v, the search began with %v", path, got, want)
	}
	keys := map[string]bool{}
	for k := range g {
		keys[k] = true
	}
	for k := range w {
		keys[k] = true
	}
	names := make([]string, 0, len(keys))
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		p := k
		if path != "" {
			p = path + "." + k
		}
		if d := differs(g[k], w[k], p); d != "" {
			return d
		}
	}
	return ""
}

// update writes start onto cur in place: metadata and spec at cur's
// resourceVersion, then status through the status subresource when the
// first write left it other than start's.
func (b server) update(ctx context.Context, k book.Key, cur, start *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	u := start.DeepCopy()
	identity(u, cur)
	if err := b.c.Update(ctx, u); err != nil {
		return nil, fmt.Errorf("explore: reset %s: restoring it as the search began: %w", k, err)
	}
	return b.status(ctx, k, u, start)
}

// recreate deletes cur, if there, finalizers removed first, waits until
// it is gone, and makes start anew, status through its subresource.
func (b server) recreate(ctx context.Context, k book.Key, cur, start *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	if cur != nil {
		if err := b.resetRead(ctx, k); err != nil {
			return nil, err
		}
		if err := b.waitGone(ctx, k); err != nil {
			return nil, err
		}
	}
	u := start.DeepCopy()
	identity(u, nil)
	if err := b.c.Create(ctx, u); err != nil {
		return nil, fmt.Errorf("explore: reset %s: making it again as the search began: %w", k, err)
	}
	return b.status(ctx, k, u, start)
}

// status writes start's status onto u, as the server stored it, through
// the status subresource, when they differ.
func (b server) status(ctx context.Context, k book.Key, u, start *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	want, _, _ := unstructured.NestedFieldNoCopy(start.Object, "status")
	got, _, _ := unstructured.NestedFieldNoCopy(u.Object, "status")
	if reflect.DeepEqual(book.Comparable(map[string]any{"s": got}, nil), book.Comparable(map[string]any{"s": want}, nil)) {
		return u, nil
	}
	if want == nil {
		unstructured.RemoveNestedField(u.Object, "status")
	} else if err := unstructured.SetNestedField(u.Object, runtime.DeepCopyJSONValue(want), "status"); err != nil {
		return nil, fmt.Errorf("explore: reset %s: restoring its status: %w", k, err)
	}
	if err := b.c.Status().Update(ctx, u); err != nil {
		return nil, fmt.Errorf("explore: reset %s: restoring its status as the search began: %w", k, err)
	}
	return u, nil
}

// identity gives u, start's content, cur's identity for an update (nil:
// none, for a create): what the server chooses it does not send.
func identity(u, cur *unstructured.Unstructured) {
	u.SetManagedFields(nil)
	u.SetGeneration(0)
	u.SetDeletionGracePeriodSeconds(nil)
	u.SetSelfLink("")
	if cur == nil {
		u.SetUID("")
		u.SetResourceVersion("")
		u.SetCreationTimestamp(metav1.Time{})
		return
	}
	u.SetUID(cur.GetUID())
	u.SetResourceVersion(cur.GetResourceVersion())
	u.SetCreationTimestamp(cur.GetCreationTimestamp())
}

// waitGone waits until the server no longer holds k's object.
func (b server) waitGone(ctx context.Context, k book.Key) error {
	deadline := time.Now().Add(restoreWait)
	for {
		u, err := b.read(ctx, k)
		if u == nil || err != nil {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("explore: reset %s: cannot restore it as the search began: still there %v after its deletion (finalizers %v)",
				k, restoreWait, u.GetFinalizers())
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("explore: reset %s: waiting for its deletion: %w", k, ctx.Err())
		case <-time.After(restorePoll):
		}
	}
}
