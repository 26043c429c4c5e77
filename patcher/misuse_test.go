package patcher_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/patchertest"
)

// Issue 10, path 1: a status change made before Retry would be dropped by
// the re-read after a conflict, so Retry refuses it up front.
func TestRetryRefusesPendingStatusChanges(t *testing.T) {
	c, _, log := newClient(t)
	p := patcher.New(c, fetch(t, c))
	p.Object().Status.ReadyReplicas = 3
	p.Object().Status.ObservedGeneration = 3
	ran := false
	err := p.Retry(ctx, func(d *appsv1.Deployment) error { ran = true; return nil })
	if !errors.Is(err, patcher.ErrPendingChanges) {
		t.Fatalf("Retry = %v, want ErrPendingChanges", err)
	}
	for _, f := range []string{"status.readyReplicas", "status.observedGeneration", "default/web"} {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("error %q does not name %s", err, f)
		}
	}
	if ran || len(log.reqs) != 0 {
		t.Fatalf("mutate ran = %v, %d requests sent; want neither", ran, len(log.reqs))
	}
	if p.Object().Status.ReadyReplicas != 3 {
		t.Fatal("the pending change was dropped from memory")
	}
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if err := p.Retry(ctx, func(d *appsv1.Deployment) error { d.Status.Replicas = 4; return nil }); err != nil {
		t.Fatalf("Retry after the pending change was flushed: %v", err)
	}
	if got := fetch(t, c).Status; got.ReadyReplicas != 3 || got.Replicas != 4 {
		t.Fatalf("server status %+v, want readyReplicas 3 and replicas 4", got)
	}
}

// Path 2: the finalizer methods decide from the server, not from memory.
func TestFinalizersDecideFromTheServer(t *testing.T) {
	c, _, _ := newClient(t)
	p := patcher.New(c, fetch(t, c))
	controllerutil.AddFinalizer(p.Object(), fin) // the kubebuilder idiom, in memory only
	if added, err := p.AddFinalizer(ctx, fin); err != nil || !added {
		t.Fatalf("AddFinalizer after controllerutil.AddFinalizer = %v, %v; want true, nil", added, err)
	}
	if !slices.Contains(fetch(t, c).Finalizers, fin) {
		t.Fatal("the server never got the finalizer")
	}
	controllerutil.RemoveFinalizer(p.Object(), fin)
	if removed, err := p.RemoveFinalizer(ctx, fin); err != nil || !removed {
		t.Fatalf("RemoveFinalizer after controllerutil.RemoveFinalizer = %v, %v; want true, nil", removed, err)
	}
	if slices.Contains(fetch(t, c).Finalizers, fin) {
		t.Fatal("the server still has the finalizer")
	}
	// The server already has it, memory does not: nothing to write, memory follows.
	q := patcher.New(c, fetch(t, c))
	if _, err := q.AddFinalizer(ctx, fin); err != nil {
		t.Fatal(err)
	}
	r := patcher.New(c, fetch(t, c))
	controllerutil.RemoveFinalizer(r.Object(), fin)
	if added, err := r.AddFinalizer(ctx, fin); err != nil || added || !slices.Contains(r.Object().Finalizers, fin) {
		t.Fatalf("AddFinalizer with the finalizer on the server = %v, %v, memory %v; want false, nil, present", added, err, r.Object().Finalizers)
	}
}

func TestAddFinalizerKeepsOtherInMemoryMetadata(t *testing.T) {
	c, _, _ := newClient(t)
	p := patcher.New(c, fetch(t, c))
	p.Object().Labels = map[string]string{"team": "a"}
	p.Object().Status.ReadyReplicas = 2
	if _, err := p.AddFinalizer(ctx, fin); err != nil {
		t.Fatal(err)
	}
	if p.Object().Labels["team"] != "a" || p.Object().Status.ReadyReplicas != 2 {
		t.Fatalf("in-memory labels %v / status %+v clobbered by the finalizer write", p.Object().Labels, p.Object().Status)
	}
	if err := p.Flush(ctx); !errors.Is(err, patcher.ErrNonStatusChange) || !strings.Contains(err.Error(), "metadata.labels") {
		t.Fatalf("Flush with an unpersisted label = %v, want ErrNonStatusChange naming metadata.labels", err)
	}
}

// Path 3: after the caller's own write, a change another writer made is a
// Conflict, never a false ErrNonStatusChange.
func TestForeignMetadataWriteAfterOwnUpdateIsAConflict(t *testing.T) {
	c, other, _ := newClient(t)
	p := patcher.New(c, fetch(t, c))
	p.Object().Labels = map[string]string{"mine": "1"}
	if err := c.Update(ctx, p.Object()); err != nil {
		t.Fatal(err)
	}
	theirs := fetch(t, other)
	theirs.Labels["theirs"] = "1"
	if err := other.Update(ctx, theirs); err != nil {
		t.Fatal(err)
	}
	err := p.Retry(ctx, func(d *appsv1.Deployment) error { d.Status.ReadyReplicas = 2; return nil })
	if err != nil {
		t.Fatalf("Retry after own Update and a foreign label write = %v, want success", err)
	}
	got := fetch(t, c)
	if got.Status.ReadyReplicas != 2 || got.Labels["mine"] != "1" || got.Labels["theirs"] != "1" {
		t.Fatalf("server %v / %+v: a write was lost", got.Labels, got.Status)
	}
}

// A lagging read after the caller's own write is never taken for the
// server's state: without an API reader the re-base reads again for a
// bounded wait; a cache that catches up stores, one that does not is a
// Conflict naming the lagging cache.
func TestStaleReadAfterOwnUpdateIsAConflict(t *testing.T) {
	for _, stale := range []int{1, 1 << 20} {
		c, _, _ := newClient(t)
		cache := patchertest.NewClient(c, patchertest.Faults{StaleReads: stale})
		first := fetch(t, cache) // the snapshot the lagging reads will serve
		p := patcher.New(cache, first)
		p.Object().Labels = map[string]string{"mine": "1"}
		if err := c.Update(ctx, p.Object()); err != nil {
			t.Fatal(err)
		}
		p.Object().Status.ReadyReplicas = 2
		err := p.Flush(ctx)
		if stale == 1 {
			if err != nil || cache.StaleReadsServed() != 1 || fetch(t, c).Status.ReadyReplicas != 2 {
				t.Fatalf("Flush after own Update with one lagging re-read = %v after %d stale reads, want stored after the wait", err, cache.StaleReadsServed())
			}
			continue
		}
		if !apierrors.IsConflict(err) || errors.Is(err, patcher.ErrNonStatusChange) || !strings.Contains(err.Error(), "lagging cache") {
			t.Fatalf("Flush after own Update with a lagging re-read = %v, want a Conflict naming the lagging cache", err)
		}
	}
}

// Path 5: a Flush with nothing to write sends nothing, even after the
// caller's own write and a foreign status write.
func TestNoopFlushAfterOwnUpdateAndForeignStatusSendsNothing(t *testing.T) {
	c, other, log := newClient(t)
	p := patcher.New(c, fetch(t, c))
	p.Object().Labels = map[string]string{"mine": "1"}
	if err := c.Update(ctx, p.Object()); err != nil {
		t.Fatal(err)
	}
	concurrentStatusWrite(t, other, func(d *appsv1.Deployment) { d.Status.Replicas = 7 })
	before := len(log.reqs)
	if err := p.Flush(ctx); err != nil {
		t.Fatalf("no-op Flush = %v", err)
	}
	if n := len(log.reqs) - before; n != 0 {
		t.Fatalf("no-op Flush sent %d requests", n)
	}
}

// Path 4: malformed input is an error naming what is wrong, never a panic
// or a silent no-op.
func TestMalformedInputIsAnError(t *testing.T) {
	c, _, _ := newClient(t)
	var zero patcher.Patcher[*appsv1.Deployment]
	var typedNilClient *nilClient
	d := fetch(t, c)
	cases := map[string]*patcher.Patcher[*appsv1.Deployment]{
		"zero Patcher":             &zero,
		"typed-nil client":         patcher.New[*appsv1.Deployment](typedNilClient, d),
		"status by value":          patcher.NewWithStatus(c, d, func(o *appsv1.Deployment) any { return o.Status }),
		"nil status":               patcher.NewWithStatus(c, d, func(o *appsv1.Deployment) any { return nil }),
		"typed-nil status":         patcher.NewWithStatus(c, d, func(o *appsv1.Deployment) any { return (*appsv1.DeploymentStatus)(nil) }),
		"address of a copy":        patcher.NewWithStatus(c, d, func(o *appsv1.Deployment) any { s := o.Status; return &s }),
		"address of the spec":      patcher.NewWithStatus(c, d, func(o *appsv1.Deployment) any { return &o.Spec }),
		"status func that panics":  patcher.NewWithStatus(c, d, func(o *appsv1.Deployment) any { panic("boom") }),
		"address of a status leaf": patcher.NewWithStatus(c, d, func(o *appsv1.Deployment) any { return &o.Status.Replicas }),
	}
	for name, p := range cases {
		t.Run(name, func(t *testing.T) {
			for op, err := range map[string]error{
				"Err":             p.Err(),
				"Flush":           p.Flush(ctx),
				"Retry":           p.Retry(ctx, func(*appsv1.Deployment) error { return nil }),
				"AddFinalizer":    second(p.AddFinalizer(ctx, fin)),
				"RemoveFinalizer": second(p.RemoveFinalizer(ctx, fin)),
			} {
				if !errors.Is(err, patcher.ErrInvalidInput) {
					t.Errorf("%s = %v, want ErrInvalidInput", op, err)
				}
			}
			if p.HasChanges() {
				t.Error("HasChanges on an unusable patcher")
			}
		})
	}
	if got := patcher.New(nil, d).Object(); got != d {
		t.Error("Object() of a patcher with a nil client is not the object it was given")
	}
	if _, err := patcher.Fetch[*appsv1.Deployment](ctx, typedNilClient, keyWeb, &appsv1.Deployment{}); !errors.Is(err, patcher.ErrInvalidInput) {
		t.Errorf("Fetch with a typed-nil client = %v", err)
	}
	p := patcher.New(c, fetch(t, c))
	p.Object().Status.Replicas = 9
	//nolint:staticcheck // a nil context is the point of the test
	if err := p.Flush(nil); !errors.Is(err, patcher.ErrInvalidInput) {
		t.Errorf("Flush(nil ctx) = %v, want ErrInvalidInput", err)
	}
	if err := p.Retry(ctx, nil); !errors.Is(err, patcher.ErrInvalidInput) {
		t.Errorf("Retry(nil mutate) = %v, want ErrInvalidInput", err)
	}
	if _, err := p.AddFinalizer(ctx, ""); !errors.Is(err, patcher.ErrInvalidInput) {
		t.Errorf("AddFinalizer(\"\") = %v, want ErrInvalidInput", err)
	}
}

// nilClient is a client.Client type whose nil pointer is a typed nil.
type nilClient struct{ client.Client }

func TestRetryContextErrorCarriesTheCause(t *testing.T) {
	c, _, _ := newClient(t)
	fc := patchertest.NewClient(c, patchertest.Faults{Conflicts: 100})
	p := patcher.New(fc, fetch(t, c), patcher.WithBackoff(wait.Backoff{Duration: time.Millisecond, Factor: 1, Steps: 100}))
	cause := errors.New("shutting down")
	cctx, cancel := context.WithCancelCause(ctx)
	attempts := 0
	err := p.Retry(cctx, func(d *appsv1.Deployment) error {
		attempts++
		if attempts == 2 {
			cancel(cause)
		}
		d.Status.ReadyReplicas = 1
		return nil
	})
	if !errors.Is(err, context.Canceled) || !errors.Is(err, cause) {
		t.Fatalf("Retry = %v, want it to match context.Canceled and the cause", err)
	}
	dctx, stop := context.WithTimeoutCause(ctx, time.Nanosecond, cause)
	defer stop()
	<-dctx.Done()
	if err := p.Retry(dctx, func(*appsv1.Deployment) error { return nil }); !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, cause) {
		t.Fatalf("Retry on an expired context = %v, want DeadlineExceeded and the cause", err)
	}
}

// A mutate that panics or fails leaves nothing half-done for a later Flush.
func TestFailedMutateIsUndone(t *testing.T) {
	for name, mutate := range map[string]func(*appsv1.Deployment) error{
		"panic": func(d *appsv1.Deployment) error {
			d.Status.ReadyReplicas = 5
			d.Labels = map[string]string{"x": "y"}
			panic("half done")
		},
		"error": func(d *appsv1.Deployment) error { d.Status.ReadyReplicas = 5; return errors.New("half done") },
	} {
		t.Run(name, func(t *testing.T) {
			c, _, log := newClient(t)
			p := patcher.New(c, fetch(t, c))
			func() {
				defer func() {
					if r := recover(); r != nil && name != "panic" {
						t.Fatalf("unexpected panic %v", r)
					} else if r == nil && name == "panic" {
						t.Fatal("the panic was swallowed")
					}
				}()
				_ = p.Retry(ctx, mutate)
			}()
			if p.HasChanges() || p.Object().Status.ReadyReplicas != 0 || p.Object().Labels != nil {
				t.Fatalf("half-done changes left in memory: %+v %v", p.Object().Status, p.Object().Labels)
			}
			if err := p.Flush(ctx); err != nil || len(log.reqs) != 0 {
				t.Fatalf("a later Flush = %v after %d requests; want nil and none", err, len(log.reqs))
			}
		})
	}
}

// Two patchers over one object pointer: the second sees the first's write
// as a foreign one and gets a Conflict, losing nothing.
func TestTwoPatchersOverOnePointerConflict(t *testing.T) {
	c, _, _ := newClient(t)
	d := fetch(t, c)
	a, b := patcher.New(c, d), patcher.New(c, d)
	d.Status.ReadyReplicas = 1
	if err := a.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	d.Status.Replicas = 4
	if err := b.Flush(ctx); !apierrors.IsConflict(err) {
		t.Fatalf("second patcher's Flush = %v, want a Conflict", err)
	}
	if got := fetch(t, c).Status.ReadyReplicas; got != 1 {
		t.Fatalf("first write lost: readyReplicas = %d", got)
	}
}

// The time budget ends a livelock even with attempts to spare.
func TestRetryTimeBudgetEndsALivelock(t *testing.T) {
	c, _, _ := newClient(t)
	fc := patchertest.NewClient(c, patchertest.Faults{Conflicts: 1 << 30})
	p := patcher.New(fc, fetch(t, c),
		patcher.WithBackoff(wait.Backoff{Duration: time.Millisecond, Factor: 1, Steps: 1 << 20}),
		patcher.WithRetryTimeout(time.Millisecond))
	err := p.Retry(ctx, func(d *appsv1.Deployment) error { d.Status.ReadyReplicas = 1; return nil })
	var ex *patcher.RetryExhaustedError
	if !errors.As(err, &ex) || !apierrors.IsConflict(err) || !strings.Contains(err.Error(), "retry timeout") {
		t.Fatalf("Retry = %v, want ErrRetryExhausted by the time budget", err)
	}
	if ex.Attempts != 1 {
		t.Fatalf("%d attempts: the time budget (1ms, less than one wait) should end it after the first", ex.Attempts)
	}
}

// Issue 23, item 3, on the fake client (no exact list: the three-way
// comparison): own Update, a foreign status write, then a label changed
// in memory. Retry returns ErrNonStatusChange and the label stays.
func TestUnsavedLabelAfterOwnUpdateAndForeignStatusWrite(t *testing.T) {
	c, other, _ := newClient(t)
	p := patcher.New(c, fetch(t, c), fastBackoff)
	p.Object().Labels = map[string]string{"saved": "1"}
	if err := c.Update(ctx, p.Object()); err != nil {
		t.Fatal(err)
	}
	concurrentStatusWrite(t, other, func(d *appsv1.Deployment) { d.Status.Replicas = 5 })
	p.Object().Labels["unsaved"] = "1"
	err := p.Retry(ctx, func(d *appsv1.Deployment) error { d.Status.ReadyReplicas = 2; return nil })
	if !errors.Is(err, patcher.ErrNonStatusChange) || p.Object().Labels["unsaved"] != "1" {
		t.Fatalf("Retry = %v, labels in memory %v; want ErrNonStatusChange and the label kept", err, p.Object().Labels)
	}
	if got := fetch(t, other); got.Labels["unsaved"] != "" || got.Status.ReadyReplicas == 2 {
		t.Fatalf("server labels %v, status %+v: something was written", got.Labels, got.Status)
	}
}
