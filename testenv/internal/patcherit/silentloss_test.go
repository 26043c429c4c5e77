package patcherit_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/patchertest"
)

// Issue 10 on the real API server: every path ends written or with an error,
// the same way on every run.

// foreignStatusWrite plays another reconcile writing status under the lock.
func foreignStatusWrite(t *testing.T, c client.Client, key client.ObjectKey, mutate func(*v1.Widget)) {
	t.Helper()
	p, err := patcher.Fetch(ctx, c, key, &v1.Widget{})
	if err != nil {
		t.Fatal(err)
	}
	mutate(p.Object())
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
}

var ready = metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Planned"}

// Path 1. Before: with a conflict, the changes made before Retry vanished and
// Retry returned nil. After: Retry refuses them up front, sends nothing and
// keeps them in memory; made inside mutate, they survive the conflict.
func TestChangesBeforeRetryAreRefusedNotLost(t *testing.T) {
	e := env(t)
	for name, before := range map[string]func(p *patcher.Patcher[*v1.Widget]){
		"SetCondition": func(p *patcher.Patcher[*v1.Widget]) {
			patcher.SetCondition(p.Object(), &p.Object().Status.Conditions, ready)
		},
		"MarkObserved": func(p *patcher.Patcher[*v1.Widget]) {
			patcher.MarkObserved(p.Object(), &p.Object().Status.ObservedGeneration)
		},
		"phase": func(p *patcher.Patcher[*v1.Widget]) { p.Object().Status.Phase = "Planned" },
	} {
		t.Run(name, func(t *testing.T) {
			c, rec := countingClient(t, e)
			key := newWidget(t, e.Client)
			p, err := patcher.Fetch(ctx, c, key, &v1.Widget{})
			if err != nil {
				t.Fatal(err)
			}
			foreignStatusWrite(t, e.Client, key, func(w *v1.Widget) { w.Status.Items = []string{"theirs"} }) // forces a conflict
			before(p)
			sent := len(rec.requests())
			err = p.Retry(ctx, func(w *v1.Widget) error { w.Status.Plan = &v1.WidgetPlan{ID: "p"}; return nil })
			if !errors.Is(err, patcher.ErrPendingChanges) {
				t.Fatalf("Retry with %s made before it = %v, want ErrPendingChanges", name, err)
			}
			if n := len(rec.requests()) - sent; n != 0 || !p.HasChanges() {
				t.Fatalf("%d requests sent, changes kept in memory: %v; want 0 and true", n, p.HasChanges())
			}
		})
	}
	t.Run("inside mutate", func(t *testing.T) {
		key := newWidget(t, e.Client)
		p, err := patcher.Fetch(ctx, e.Client, key, &v1.Widget{})
		if err != nil {
			t.Fatal(err)
		}
		foreignStatusWrite(t, e.Client, key, func(w *v1.Widget) { w.Status.Items = []string{"theirs"} })
		attempts := 0
		err = p.Retry(ctx, func(w *v1.Widget) error {
			attempts++
			patcher.SetCondition(w, &w.Status.Conditions, ready)
			patcher.MarkObserved(w, &w.Status.ObservedGeneration)
			w.Status.Phase = "Planned"
			return nil
		})
		if err != nil || attempts != 2 {
			t.Fatalf("Retry = %v after %d attempts; want nil after 2 (one forced conflict)", err, attempts)
		}
		got := get(t, e.Client, key).Status
		if got.Phase != "Planned" || got.ObservedGeneration != 1 || len(got.Conditions) != 1 || !slices.Equal(got.Items, []string{"theirs"}) {
			t.Fatalf("server status %+v: a write was lost", got)
		}
	})
}

// Path 2. Before: after controllerutil.AddFinalizer the patcher wrote
// nothing, and after controllerutil.RemoveFinalizer a deleting object stayed
// Terminating. After: both decide from the server.
func TestFinalizersAfterTheKubebuilderIdiom(t *testing.T) {
	e := env(t)
	const f = "example.com/cleanup"
	key := newWidget(t, e.Client)
	p, err := patcher.Fetch(ctx, e.Client, key, &v1.Widget{})
	if err != nil {
		t.Fatal(err)
	}
	controllerutil.AddFinalizer(p.Object(), f)
	p.Object().Labels = map[string]string{"in-memory": "yes"}
	if added, err := p.AddFinalizer(ctx, f); !added || err != nil {
		t.Fatalf("AddFinalizer = %v, %v; want true, nil", added, err)
	}
	if !slices.Contains(get(t, e.Client, key).Finalizers, f) {
		t.Fatal("the server never got the finalizer")
	}
	if p.Object().Labels["in-memory"] != "yes" {
		t.Fatal("AddFinalizer clobbered an in-memory label")
	}
	if err := e.Client.Delete(ctx, get(t, e.Client, key)); err != nil {
		t.Fatal(err)
	}
	q, err := patcher.Fetch(ctx, e.Client, key, &v1.Widget{})
	if err != nil {
		t.Fatal(err)
	}
	controllerutil.RemoveFinalizer(q.Object(), f)
	if removed, err := q.RemoveFinalizer(ctx, f); !removed || err != nil {
		t.Fatalf("RemoveFinalizer = %v, %v; want true, nil", removed, err)
	}
	if err := e.Client.Get(ctx, key, &v1.Widget{}); !apierrors.IsNotFound(err) {
		t.Fatalf("the object is stuck terminating: Get = %v", err)
	}
}

// Path 3 with a manager's cache and no API reader. Before: 19 and 23 of 30
// reconciles got a false ErrNonStatusChange for the label they had just
// written. After: every one is written, whatever the cache's timing.
func TestOwnUpdateThenRetryThroughAManagersCache(t *testing.T) {
	e := env(t)
	mgr, err := e.NewManager(manager.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() { _ = mgr.Start(mctx) }()
	if !mgr.GetCache().WaitForCacheSync(mctx) {
		t.Fatal("cache did not sync")
	}
	cached := mgr.GetClient()
	for round := range 30 {
		key := newWidget(t, e.Client)
		w := &v1.Widget{}
		if err := wait.PollUntilContextTimeout(ctx, 5*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
			return cached.Get(ctx, key, w) == nil, nil
		}); err != nil {
			t.Fatalf("round %d: the cache never saw the object: %v", round, err)
		}
		p := patcher.New(cached, w)
		w.Labels = map[string]string{"round": fmt.Sprint(round)}
		if err := cached.Update(ctx, w); err != nil {
			t.Fatalf("round %d: own Update: %v", round, err)
		}
		if err := p.Retry(ctx, func(w *v1.Widget) error { w.Status.Phase = "Labelled"; return nil }); err != nil {
			t.Fatalf("round %d: Retry after own Update = %v", round, err)
		}
		if got := get(t, e.Client, key); got.Labels["round"] != fmt.Sprint(round) || got.Status.Phase != "Labelled" {
			t.Fatalf("round %d: server labels %v, phase %q", round, got.Labels, got.Status.Phase)
		}
	}
}

// Path 3, the lag made certain: the re-read after the caller's own write
// returns the old object, twice. The stale read is never taken for the
// server's state (no false ErrNonStatusChange, no re-base on it): Flush
// reads again through the same client, waiting for the cache to reach the
// caller's write (patcher/cachewait.go), and stores on the read that has.
// A cache that stays behind past the wait is a Conflict
// (examples/internal/patchers' TestOwnUpdateThenFlushThroughHeldCache).
func TestOwnUpdateWithALaggingReadWaitsForTheCache(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	lagging := patchertest.NewClient(e.Client, patchertest.Faults{StaleReads: 2})
	w := &v1.Widget{}
	if err := lagging.Get(ctx, key, w); err != nil {
		t.Fatal(err)
	}
	p := patcher.New(lagging, w)
	w.Labels = map[string]string{"mine": "1"}
	if err := e.Client.Update(ctx, w); err != nil {
		t.Fatal(err)
	}
	w.Status.Phase = "Labelled"
	if err := p.Flush(ctx); err != nil {
		t.Fatalf("Flush = %v, want it stored once the cache caught up", err)
	}
	if n := lagging.StaleReadsServed(); n != 2 {
		t.Fatalf("%d stale reads served, want both (the wait read past them)", n)
	}
	if got := get(t, e.Client, key); got.Labels["mine"] != "1" || got.Status.Phase != "Labelled" {
		t.Fatalf("server labels %v, phase %q", got.Labels, got.Status.Phase)
	}
}

// Path 3, uncached: another writer changes labels and spec between the
// caller's Update and its Retry. Before: ErrNonStatusChange, not retried.
// After: a Conflict that Retry handles; every write is kept.
func TestForeignWriteAfterOwnUpdateIsRetried(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	p, err := patcher.Fetch(ctx, e.Client, key, &v1.Widget{})
	if err != nil {
		t.Fatal(err)
	}
	p.Object().Labels = map[string]string{"mine": "1"}
	if err := e.Client.Update(ctx, p.Object()); err != nil {
		t.Fatal(err)
	}
	theirs := get(t, e.Client, key)
	theirs.Labels["theirs"] = "1"
	theirs.Spec.Size = 9
	if err := e.Client.Update(ctx, theirs); err != nil {
		t.Fatal(err)
	}
	if err := p.Retry(ctx, func(w *v1.Widget) error { w.Status.Phase = "Done"; return nil }); err != nil {
		t.Fatalf("Retry = %v, want success", err)
	}
	got := get(t, e.Client, key)
	if got.Labels["mine"] != "1" || got.Labels["theirs"] != "1" || got.Spec.Size != 9 || got.Status.Phase != "Done" {
		t.Fatalf("server %v %+v %+v: a write was lost", got.Labels, got.Spec, got.Status)
	}
}

// Path 5. Before: a GET and a Conflict. After: no request, nil.
func TestNoopFlushAfterOwnUpdateAndForeignStatusWrite(t *testing.T) {
	e := env(t)
	c, rec := countingClient(t, e)
	key := newWidget(t, e.Client)
	p, err := patcher.Fetch(ctx, c, key, &v1.Widget{})
	if err != nil {
		t.Fatal(err)
	}
	p.Object().Labels = map[string]string{"mine": "1"}
	if err := c.Update(ctx, p.Object()); err != nil {
		t.Fatal(err)
	}
	foreignStatusWrite(t, e.Client, key, func(w *v1.Widget) { w.Status.Phase = "Theirs" })
	sent := len(rec.requests())
	if err := p.Flush(ctx); err != nil {
		t.Fatalf("no-op Flush = %v", err)
	}
	if n := len(rec.requests()) - sent; n != 0 {
		t.Fatalf("no-op Flush sent %d requests: %+v", n, rec.requests()[sent:])
	}
}

// Path 4 on the server: malformed input is an error and sends nothing.
func TestMalformedInputSendsNothing(t *testing.T) {
	e := env(t)
	c, rec := countingClient(t, e)
	key := newWidget(t, e.Client)
	w := get(t, c, key)
	sent := len(rec.requests())
	var zero patcher.Patcher[*v1.Widget]
	for name, p := range map[string]*patcher.Patcher[*v1.Widget]{
		"zero Patcher":    &zero,
		"status by value": patcher.NewWithStatus(c, w, func(o *v1.Widget) any { return o.Status }),
		"nil status":      patcher.NewWithStatus(c, w, func(o *v1.Widget) any { return nil }),
	} {
		w.Status.Phase = "x"
		if err := p.Flush(ctx); !errors.Is(err, patcher.ErrInvalidInput) {
			t.Errorf("%s: Flush = %v, want ErrInvalidInput", name, err)
		}
	}
	if n := len(rec.requests()) - sent; n != 0 {
		t.Fatalf("%d requests sent", n)
	}
}

// A Retry cancelled with a cause: the error matches both.
func TestCancelledRetryCarriesTheCause(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	p, err := patcher.Fetch(ctx, e.Client, key, &v1.Widget{})
	if err != nil {
		t.Fatal(err)
	}
	cause := errors.New("manager shutting down")
	cctx, cancel := context.WithCancelCause(ctx)
	err = p.Retry(cctx, func(w *v1.Widget) error { cancel(cause); w.Status.Phase = "x"; return nil })
	if !errors.Is(err, context.Canceled) || !errors.Is(err, cause) {
		t.Fatalf("Retry = %v, want context.Canceled and the cause", err)
	}
}

// A panicking mutate leaves nothing for a deferred Flush to write.
func TestPanickingMutateLeavesNothingToFlush(t *testing.T) {
	e := env(t)
	c, rec := countingClient(t, e)
	key := newWidget(t, e.Client)
	p, err := patcher.Fetch(ctx, c, key, &v1.Widget{})
	if err != nil {
		t.Fatal(err)
	}
	sent := len(rec.requests())
	func() {
		defer func() {
			if r := recover(); r == nil {
				t.Fatal("the panic was swallowed")
			}
			if err := p.Flush(ctx); err != nil { // the deferred Flush of a reconciler
				t.Fatal(err)
			}
		}()
		_ = p.Retry(ctx, func(w *v1.Widget) error { w.Status.Phase = "half"; panic("bug") })
	}()
	if n := len(rec.requests()) - sent; n != 0 || get(t, e.Client, key).Status.Phase != "" {
		t.Fatalf("%d requests sent after a panicking mutate", n)
	}
}

// One object pointer, two patchers: documented as a Conflict, nothing lost.
func TestTwoPatchersOnOnePointer(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	w := get(t, e.Client, key)
	a, b := patcher.New(e.Client, w), patcher.New(e.Client, w)
	w.Status.Phase = "A"
	if err := a.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	w.Status.Items = []string{"b"}
	if err := b.Flush(ctx); !apierrors.IsConflict(err) || !strings.Contains(err.Error(), "another writer changed the status") {
		t.Fatalf("second patcher's Flush = %v, want a Conflict", err)
	}
	if get(t, e.Client, key).Status.Phase != "A" {
		t.Fatal("the first patcher's write was lost")
	}
}

// The default attempt budget holds at 32 writers: 32 x 20 appends to one
// object, all writers released together, exhaust nothing and lose nothing.
// The attempts (DefaultBackoff.Steps) are what is tested; the time bound
// (DefaultRetryTimeout) is off, because it is wall clock: on a loaded CI
// machine one Retry among 32 contending writers took over its 2 minutes
// while every attempt it made was needed and none was lost.
func TestDefaultRetryBudgetHoldsAt32Writers(t *testing.T) {
	if testing.Short() {
		t.Skip("32 x 20 contended appends")
	}
	const k, m = 32, 20
	e := env(t)
	key := newWidget(t, e.Client)
	start := make(chan struct{})
	errs := make(chan error, k*m)
	var wg sync.WaitGroup
	for w := range k {
		// 32 writers with a client each, as 32 managers: one client would
		// queue them in its version book instead of at the server's lock.
		c, err := client.New(e.Config, client.Options{Scheme: e.Scheme, Mapper: e.Mapper})
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for i := range m {
				p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, patcher.WithMetrics(nil), patcher.WithRetryTimeout(0))
				if err == nil {
					err = p.Retry(ctx, func(o *v1.Widget) error {
						o.Status.Items = append(o.Status.Items, fmt.Sprintf("w%d-%d", w, i))
						return nil
					})
				}
				if err != nil {
					errs <- err
				}
			}
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("update failed: %v", err)
	}
	items := get(t, e.Client, key).Status.Items
	if got := sets.New(items...); len(items) != k*m || got.Len() != k*m {
		t.Fatalf("status.items holds %d entries (%d distinct), want all %d", len(items), got.Len(), k*m)
	}
}
