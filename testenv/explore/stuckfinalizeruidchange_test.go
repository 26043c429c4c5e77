package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	schedrun "github.com/statuspatch/statuspatch/testenv/explore/internal/run"

	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// The book may hold an object's versions across a delete and create it did
// not see between them (another UID, no absence recorded): "no stuck
// finalizer" names the step that added the finalizer to the newest UID and
// the one that deleted it, not the earlier object's.
func TestStuckFinalizerStopsAtAUIDChange(t *testing.T) {
	widget := schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}
	w := book.Key{GVK: widget, NN: types.NamespacedName{Namespace: "ns", Name: "w"}}
	meta := func(uid string, deleting bool, finalizers ...any) map[string]any {
		// The label tells the two apart (the book also records the
		// deletion between two UIDs: TestRecordNewUIDStartsAnew).
		m := map[string]any{"namespace": "ns", "name": "w", "uid": uid, "labels": map[string]any{"incarnation": uid}}
		if deleting {
			m["deletionTimestamp"] = "2026-11-25T00:00:00Z"
		}
		if len(finalizers) > 0 {
			m["finalizers"] = finalizers
		}
		return map[string]any{"metadata": m}
	}
	const f = "example.com/cleanup"
	r := schedrun.NewScripted(nil)
	rec := item{Rec: 0, Action: -1, Key: w}
	r.Record(w, meta("a", false), "1")                                                             // the scenario's Widget
	r.Step(rec, "done", nil, func() { r.Record(w, meta("a", false, f), "2") })                     // step 1 adds f to uid a
	r.Step(item{Rec: -1, Action: 0}, "done", nil, func() { r.Record(w, meta("a", true, f), "3") }) // step 2 deletes uid a
	r.Step(rec, "done", nil, func() { r.Record(w, meta("b", true, f), "4") })                      // step 3: uid b, deleted, with f
	first := r.Steps()
	r.Step(rec, "done", nil, nil)
	r.CheckFinalizers(first, []schema.GroupVersionKind{widget})
	if r.Failed() == nil || r.Failed().Invariant != InvariantStuckFinalizer ||
		!strings.Contains(r.Failed().Message, "being deleted (since step 3) and keeps the finalizer "+f+" that step 3 ") {
		t.Fatalf("want the finalizer added and the object deleted at step 3 (uid b), got: %+v", r.Failed())
	}
}
