package e2e

import (
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"

	plainv1 "example.com/goldens/api/plain/v1"
)

// FetchWidgetStatusPatcherInto reads into the caller's value, and the
// patcher is over that value: kubebuilder's tutorial form (a local value,
// written, read again, written), one patcher assigned again at the
// re-read. The second write carries what another writer stored between
// (the re-read's resourceVersion), and what the code changes on the
// value is what Flush writes.
func TestFetchIntoTheCallersValue(t *testing.T) {
	c := newClient(t, &plainv1.Widget{ObjectMeta: meta("w", 1)})
	key := client.ObjectKey{Namespace: "default", Name: "w"}
	var w plainv1.Widget
	p, err := plainv1.FetchWidgetStatusPatcherInto(ctx, c, key, &w)
	if err != nil {
		t.Fatal(err)
	}
	if p.Object() != &w {
		t.Fatalf("the patcher's object is %p, not the value read into (%p)", p.Object(), &w)
	}
	w.Status.Phase = "Pending"
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}

	// Another writer stores a status field between the two writes.
	var other plainv1.Widget
	if err := c.Get(ctx, key, &other); err != nil {
		t.Fatal(err)
	}
	other.Status.Replicas = 7
	if err := c.Status().Update(ctx, &other); err != nil {
		t.Fatal(err)
	}

	p, err = plainv1.FetchWidgetStatusPatcherInto(ctx, c, key, &w)
	if err != nil {
		t.Fatal(err)
	}
	if p.Object() != &w || w.Status.Replicas != 7 || w.ResourceVersion != other.ResourceVersion {
		t.Fatalf("the re-read is not in the value: %p (want %p), %+v at %s (want %s)", p.Object(), &w, w.Status, w.ResourceVersion, other.ResourceVersion)
	}
	w.Status.Phase = "Ready"
	if err := p.Flush(ctx); err != nil {
		t.Fatalf("the write after the re-read: %v", err)
	}
	var got plainv1.Widget
	if err := c.Get(ctx, key, &got); err != nil {
		t.Fatal(err)
	}
	if got.Status.Phase != "Ready" || got.Status.Replicas != 7 {
		t.Fatalf("stored status %+v, want Phase Ready and the other writer's Replicas 7", got.Status)
	}
}

// A failed read returns a nil patcher with its error; nil obj is an error,
// no panic.
func TestFetchIntoErrors(t *testing.T) {
	c := newClient(t)
	var w plainv1.Widget
	if p, err := plainv1.FetchWidgetStatusPatcherInto(ctx, c, client.ObjectKey{Namespace: "default", Name: "missing"}, &w); err == nil || p != nil {
		t.Fatalf("FetchInto of a missing object = %v, %v; want nil, error", p, err)
	}
	if p, err := plainv1.FetchWidgetStatusPatcherInto(ctx, c, client.ObjectKey{Namespace: "default", Name: "w"}, nil); err == nil || p != nil {
		t.Fatalf("FetchInto into nil = %v, %v; want nil, error", p, err)
	}
}
