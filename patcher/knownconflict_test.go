package patcher_test

import (
	"context"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/patchertest"
)

// A patcher whose base is older than a version its client already wrote
// gets the Conflict without a request; Retry then re-reads and writes.
func TestKnownConflictIsNotSent(t *testing.T) {
	inner, _, log := newClient(t)
	// One client value, as a manager's is (an interceptor client is a struct
	// value, which cannot key the book: it is wrapped in a pointer).
	c := patchertest.NewClient(inner, patchertest.Faults{})
	stale := patcher.New(c, fetch(t, c))
	fresh := patcher.New(c, fetch(t, c))
	fresh.Object().Status.ReadyReplicas = 1
	if err := fresh.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	before := log.count("patch", "status")
	stale.Object().Status.AvailableReplicas = 2
	err := stale.Flush(context.Background())
	if !apierrors.IsConflict(err) {
		t.Fatalf("Flush on a base older than the client's own write = %v, want a Conflict", err)
	}
	if n := log.count("patch", "status") - before; n != 0 {
		t.Fatalf("%d requests sent for a write known to conflict", n)
	}
	stale.Object().Status.AvailableReplicas = 0
	if err := stale.Retry(context.Background(), func(d *appsv1.Deployment) error { d.Status.AvailableReplicas = 2; return nil }); err != nil {
		t.Fatal(err)
	}
	got := fetch(t, c)
	if got.Status.ReadyReplicas != 1 || got.Status.AvailableReplicas != 2 {
		t.Fatalf("status = %+v, want both writes kept", got.Status)
	}
	if n := log.count("patch", "status") - before; n != 1 {
		t.Fatalf("Retry sent %d writes, want 1 (the re-read showed the newer state)", n)
	}
}
