package patcher_test

import (
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/statuspatch/statuspatch/patcher"
)

const fin = "example.com/cleanup"

func TestAddFinalizerThenFlushDoesNotSelfConflict(t *testing.T) {
	c, _, log := newClient(t)
	p := patcher.New(c, fetch(t, c))
	p.Object().Status.ReadyReplicas = 2 // set before the metadata write
	added, err := p.AddFinalizer(ctx, fin)
	if err != nil || !added {
		t.Fatalf("AddFinalizer = %v, %v", added, err)
	}
	if got := p.Object().Status.ReadyReplicas; got != 2 {
		t.Fatalf("in-memory status lost by the metadata write: readyReplicas = %d", got)
	}
	if err := p.Flush(ctx); err != nil {
		t.Fatalf("Flush after AddFinalizer: %v", err)
	}
	got := fetch(t, c)
	if !slices.Contains(got.Finalizers, fin) || got.Status.ReadyReplicas != 2 {
		t.Fatalf("server finalizers %v, readyReplicas %d", got.Finalizers, got.Status.ReadyReplicas)
	}
	if log.count("patch", "") != 1 || log.count("patch", "status") != 1 {
		t.Fatalf("requests: %d metadata patches, %d status patches; want 1 and 1", log.count("patch", ""), log.count("patch", "status"))
	}
	if again, err := p.AddFinalizer(ctx, fin); again || err != nil {
		t.Fatalf("second AddFinalizer = %v, %v; want false, nil", again, err)
	}
}

func TestAddFinalizerIsOptimistic(t *testing.T) {
	c, other, _ := newClient(t)
	p := patcher.New(c, fetch(t, c))
	concurrentStatusWrite(t, other, func(d *appsv1.Deployment) { d.Status.Replicas = 5 })
	if _, err := p.AddFinalizer(ctx, fin); !apierrors.IsConflict(err) {
		t.Fatalf("AddFinalizer from a stale base = %v, want a Conflict", err)
	}
}

// A reconciler that writes the finalizer itself, on the same object, and
// then flushes: the patcher notices and re-bases safely.
func TestFlushAfterCallersOwnMetadataWrite(t *testing.T) {
	c, _, _ := newClient(t)
	p := patcher.New(c, fetch(t, c))
	controllerutil.AddFinalizer(p.Object(), fin)
	if err := c.Update(ctx, p.Object()); err != nil {
		t.Fatal(err)
	}
	p.Object().Status.ReadyReplicas = 2
	if err := p.Flush(ctx); err != nil {
		t.Fatalf("Flush after the caller's own Update: %v", err)
	}
	if got := fetch(t, c).Status.ReadyReplicas; got != 2 {
		t.Fatalf("server readyReplicas = %d, want 2", got)
	}
}

// The same, but another writer changed status in between: no re-base, a
// Conflict, and the other write survives.
func TestFlushAfterOwnMetadataWriteStillCatchesConcurrentStatus(t *testing.T) {
	c, other, _ := newClient(t)
	p := patcher.New(c, fetch(t, c))
	concurrentStatusWrite(t, other, func(d *appsv1.Deployment) { d.Status.AvailableReplicas = 9 })
	fresh := fetch(t, c)
	p.Object().ResourceVersion = fresh.ResourceVersion // as a blind metadata patch would leave it
	p.Object().Status.ReadyReplicas = 2
	if err := p.Flush(ctx); !apierrors.IsConflict(err) {
		t.Fatalf("Flush = %v, want a Conflict", err)
	}
	if got := fetch(t, c).Status.AvailableReplicas; got != 9 {
		t.Fatalf("concurrent write lost: availableReplicas = %d", got)
	}
}

func TestRemoveLastFinalizerOfDeletingObject(t *testing.T) {
	d := deployment()
	d.Finalizers = []string{fin}
	c, other, log := newClient(t, d)
	if err := other.Delete(ctx, fetch(t, other)); err != nil {
		t.Fatal(err)
	}
	p := patcher.New(c, fetch(t, c))
	if p.Object().DeletionTimestamp == nil {
		t.Fatal("object is not being deleted")
	}
	removed, err := p.RemoveFinalizer(ctx, fin)
	if err != nil || !removed {
		t.Fatalf("RemoveFinalizer = %v, %v", removed, err)
	}
	p.Object().Status.ReadyReplicas = 2
	before := len(log.reqs)
	if err := p.Flush(ctx); !apierrors.IsNotFound(err) {
		t.Fatalf("Flush after the last finalizer went = %v, want NotFound", err)
	}
	if len(log.reqs) != before {
		t.Fatal("Flush sent a request for an object known to be gone")
	}
	if err := other.Get(ctx, keyWeb, &appsv1.Deployment{}); !apierrors.IsNotFound(err) {
		t.Fatalf("object still exists: %v", err)
	}
}
