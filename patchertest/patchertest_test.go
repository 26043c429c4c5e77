package patchertest_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/statuspatch/statuspatch/patchertest"
)

var (
	ctx = context.Background()
	key = client.ObjectKey{Namespace: "default", Name: "web"}
)

func fakeClient(t *testing.T) client.WithWatch {
	s := runtime.NewScheme()
	if err := appsv1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return fake.NewClientBuilder().WithScheme(s).
		WithObjects(&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: key.Name, Namespace: key.Namespace}}).
		WithStatusSubresource(&appsv1.Deployment{}).Build()
}

func TestInjectedConflicts(t *testing.T) {
	c := patchertest.NewClient(fakeClient(t), patchertest.Faults{Conflicts: 2})
	for i := range 3 {
		d := &appsv1.Deployment{}
		if err := c.Get(ctx, key, d); err != nil {
			t.Fatal(err)
		}
		d.Status.Replicas = int32(i + 1)
		err := c.Status().Update(ctx, d)
		if wantConflict := i < 2; apierrors.IsConflict(err) != wantConflict {
			t.Fatalf("write %d: err = %v, want conflict %v", i, err, wantConflict)
		}
	}
	if c.StatusWrites() != 3 || c.InjectedConflicts() != 2 {
		t.Fatalf("writes %d, conflicts %d; want 3 and 2", c.StatusWrites(), c.InjectedConflicts())
	}
	d := &appsv1.Deployment{}
	_ = c.Get(ctx, key, d)
	if d.Status.Replicas != 3 {
		t.Fatalf("replicas = %d: the write after the injected conflicts did not go through", d.Status.Replicas)
	}
	// Main-resource writes are not status writes.
	if err := c.Update(ctx, d); err != nil || c.StatusWrites() != 3 {
		t.Fatalf("main-resource Update: %v, status writes %d", err, c.StatusWrites())
	}
}

func TestStaleReads(t *testing.T) {
	inner := fakeClient(t)
	c := patchertest.NewClient(inner, patchertest.Faults{StaleReads: 2})
	first := &appsv1.Deployment{}
	if err := c.Get(ctx, key, first); err != nil {
		t.Fatal(err)
	}
	first.Status.Replicas = 9
	if err := inner.Status().Update(ctx, first); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		d := &appsv1.Deployment{}
		if err := c.Get(ctx, key, d); err != nil {
			t.Fatal(err)
		}
		if stale := i < 2; (d.Status.Replicas == 0) != stale {
			t.Fatalf("read %d: replicas %d, want stale=%v", i, d.Status.Replicas, stale)
		}
	}
	if c.StaleReadsServed() != 2 {
		t.Fatalf("stale reads served = %d, want 2", c.StaleReadsServed())
	}
}

func TestContendReleasesTogetherAndRecordsWrites(t *testing.T) {
	c := fakeClient(t)
	var started atomic.Int32
	reconcile := func(replicas int32) patchertest.Reconcile {
		return func(ctx context.Context, c client.Client) error {
			started.Add(1)
			for started.Load() < 2 { // both must be running at once
				time.Sleep(time.Millisecond)
			}
			d := &appsv1.Deployment{}
			if err := c.Get(ctx, key, d); err != nil {
				return err
			}
			base := d.DeepCopy()
			d.Status.Replicas = replicas
			return c.Status().Patch(ctx, d, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
		}
	}
	results := patchertest.Contend(ctx, c, reconcile(1), reconcile(2))
	if len(results) != 2 {
		t.Fatalf("%d results", len(results))
	}
	applied := 0
	for i, r := range results {
		if len(r.Writes) != 1 {
			t.Fatalf("contender %d recorded %d writes, want 1", i, len(r.Writes))
		}
		if r.Writes[0].Key != key || len(r.Writes[0].Patch) == 0 {
			t.Fatalf("contender %d write = %+v", i, r.Writes[0])
		}
		applied += len(r.Applied())
		if (r.Err == nil) != (len(r.Applied()) == 1) {
			t.Fatalf("contender %d: err %v but %d applied writes", i, r.Err, len(r.Applied()))
		}
	}
	if applied < 1 {
		t.Fatal("no write applied")
	}
}
