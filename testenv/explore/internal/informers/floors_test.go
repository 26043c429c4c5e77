package informers

import (
	"errors"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/reset"
)

// A kind's floor is the newest revision of its writes and Lists while no
// write after it is of an unknown revision; an error that says nothing
// was stored leaves it, any other removes it until a List of the newest.
func TestFloorsFollowWrites(t *testing.T) {
	gk := schema.GroupKind{Group: "example.com", Kind: "Widget"}
	f := Floors{}
	if got := f.At(gk); got != "" {
		t.Fatalf("no write yet: At = %q, want the newest", got)
	}
	f.Wrote(gk, "", "5", nil)
	f.Wrote(gk, "5", "5", nil) // a no-op: no new revision
	f.Wrote(gk, "5", "", apierrors.NewConflict(schema.GroupResource{Resource: "widgets"}, "a", errors.New("stale")))
	if got := f.At(gk); got != "5" {
		t.Fatalf("after a write at 5, a no-op and a 409: At = %q, want 5", got)
	}
	f.Wrote(gk, "5", "", errors.New("connection reset"))
	if got := f.At(gk); got != "" {
		t.Fatalf("after a write stored or not: At = %q, want the newest", got)
	}
	if rv, unsure := f.Revision(gk); rv != 5 || !unsure {
		t.Fatalf("Revision = %d, %v; want 5, unsure", rv, unsure)
	}
	f.Listed(gk, "8", true)
	if got := f.At(gk); got != "8" {
		t.Fatalf("after a List of the newest at 8: At = %q, want 8", got)
	}
}

// After a reset, a kind whose every leftover's revision is known may
// check the reset's emptiness at the newest of them; a kind with a
// leftover unsure (or of no known revision) may not, and a carried
// leftover, not deleted by this reset, counts for nothing.
func TestFloorsAfterReset(t *testing.T) {
	widget := schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}
	gizmo := schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Gizmo"}
	key := func(gvk schema.GroupVersionKind, name string) book.Key {
		return book.Key{GVK: gvk, NN: types.NamespacedName{Namespace: "ns", Name: name}}
	}
	f := Floors{}
	f.AfterReset([]reset.Leftover{
		{Key: key(widget, "a"), KindRV: 4},
		{Key: key(widget, "b"), KindRV: 6},
		{Key: key(widget, "c"), Carried: true},
		{Key: key(gizmo, "d"), KindRV: 6},
		{Key: key(gizmo, "e"), KindRV: 7, KindUnsure: true},
	})
	if got := f.SinceReset(widget.GroupKind()); got != "6" {
		t.Errorf("Widget: SinceReset = %q, want 6", got)
	}
	if got := f.SinceReset(gizmo.GroupKind()); got != "" {
		t.Errorf("Gizmo, one leftover unsure: SinceReset = %q, want none", got)
	}
	f.Wrote(widget.GroupKind(), "", "9", nil)
	if got := f.SinceReset(widget.GroupKind()); got != "" {
		t.Errorf("Widget written since: SinceReset = %q, want none (its floor is At's)", got)
	}
}
