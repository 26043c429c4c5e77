package patcherit_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/workqueue"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// A user changes a Widget's spec while the manager's cache lags (its watch
// events are held back), and a reconcile marks the new generation observed
// and Ready. statuspatch converges: Retry re-reads through the manager's
// API reader after the conflict, and the next reconcile, reading the cache
// from before its own write, reads fresh instead of conflicting. A helper
// written the way Flux's is (the status patched under the lock, re-read
// through the cache and retried 5 times, then an error and a requeue) gets
// the same stale object on every attempt and stays at observedGeneration
// 0 for as long as the cache lags; it converges once the events arrive.
func TestStaleCacheStatuspatchConvergesFluxStyleStuck(t *testing.T) {
	sp := &observeReconciler{results: make(chan error)}
	flux := &fluxStyleReconciler{results: make(chan error)}
	spEvents := make(chan event.GenericEvent, 1)
	fluxEvents := make(chan event.GenericEvent, 1)
	conflicts := &conflictsByName{}
	_, gate, seen := laggingManager(t, func(mgr manager.Manager) error {
		sp.client, sp.cache = patcher.ForManager(mgr), mgr.GetClient()
		flux.client = mgr.GetClient()
		if err := channelController(mgr, "statuspatch", spEvents, sp); err != nil {
			return err
		}
		return channelController(mgr, "flux-style", fluxEvents, flux)
	}, conflicts.wrap)
	e := env(t)
	spKey, fluxKey := newWidget(t, e.Client), newWidget(t, e.Client)
	seen.waitFor(t, spKey, get(t, e.Client, spKey).ResourceVersion)
	seen.waitFor(t, fluxKey, get(t, e.Client, fluxKey).ResourceVersion)

	gate.hold()
	for _, key := range []client.ObjectKey{spKey, fluxKey} {
		w := get(t, e.Client, key)
		w.Spec.Size++
		if err := e.Client.Update(ctx, w); err != nil {
			t.Fatal(err)
		}
	}
	spEvents <- genericEvent(spKey)
	fluxEvents <- genericEvent(fluxKey)

	if err := next(t, sp.results); err != nil {
		t.Fatalf("statuspatch reconcile on a lagging cache: %v", err)
	}
	if w := get(t, e.Client, spKey); w.Status.ObservedGeneration != w.Generation || !readyFor(w) {
		t.Fatalf("statuspatch stuck: observedGeneration %d, generation %d, conditions %+v", w.Status.ObservedGeneration, w.Generation, w.Status.Conditions)
	}
	for i := range 3 {
		if err := next(t, flux.results); !apierrors.IsConflict(err) {
			t.Fatalf("flux-style reconcile %d: got %v, want a Conflict after 5 attempts through the lagging cache", i+1, err)
		}
	}
	if w := get(t, e.Client, fluxKey); w.Status.ObservedGeneration == w.Generation {
		t.Fatalf("the flux-style helper converged while the cache lagged: the scenario does not hold the cache back")
	}

	// The next reconcile reads the cache from before statuspatch's own write:
	// it reads fresh through the API reader, sees the work done, and sends
	// nothing.
	written := get(t, e.Client, spKey).ResourceVersion
	before := conflicts.count(spKey.Name)
	spEvents <- genericEvent(spKey)
	if err := next(t, sp.results); err != nil {
		t.Fatalf("statuspatch reconcile after its own write: %v", err)
	}
	if got := get(t, e.Client, spKey).ResourceVersion; got != written || conflicts.count(spKey.Name) != before || !sp.sawStale.Load() {
		t.Fatalf("after its own write: resourceVersion %s (want %s), %d new conflicts (want 0), stale read seen %v (want true)",
			got, written, conflicts.count(spKey.Name)-before, sp.sawStale.Load())
	}

	// The lag was the cause: with the events delivered, the helper converges.
	gate.release()
	for {
		if err := next(t, flux.results); err == nil {
			break
		}
	}
	if w := get(t, e.Client, fluxKey); w.Status.ObservedGeneration != w.Generation {
		t.Fatalf("flux-style helper after the cache caught up: observedGeneration %d, generation %d", w.Status.ObservedGeneration, w.Generation)
	}
}

// observeReconciler marks a Widget's generation observed and Ready with a
// patcher made from patcher.ForManager's client. It also reads the
// manager's cache itself, to tell when that lagged: ForManager's client
// reads this process's own writes past it (issue 72).
type observeReconciler struct {
	client   client.Client
	cache    client.Client
	results  chan error
	sawStale atomic.Bool // Fetch found the cached read behind an own write
}

func (r *observeReconciler) Reconcile(ctx context.Context, req reconcile.Request) (ctrl.Result, error) {
	cached := &v1.Widget{}
	if err := r.cache.Get(ctx, req.NamespacedName, cached); err != nil {
		return ctrl.Result{}, report(ctx, r.results, err)
	}
	p, err := patcher.Fetch(ctx, r.client, req.NamespacedName, &v1.Widget{})
	if err != nil {
		return ctrl.Result{}, report(ctx, r.results, err)
	}
	if p.Object().ResourceVersion != cached.ResourceVersion {
		r.sawStale.Store(true)
	}
	err = p.Retry(ctx, func(w *v1.Widget) error {
		patcher.MarkObserved(w, &w.Status.ObservedGeneration)
		patcher.SetCondition(w, &w.Status.Conditions, metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Reconciled"})
		return nil
	})
	return ctrl.Result{}, report(ctx, r.results, err)
}

// fluxStyleReconciler does the same with a helper written the way Flux's
// is: the status is patched under the optimistic lock; on a conflict the
// object is read again through the same (cached) client and the patch is
// tried again, 5 attempts in all; then the reconcile fails and is requeued.
type fluxStyleReconciler struct {
	client  client.Client
	results chan error
}

func (r *fluxStyleReconciler) Reconcile(ctx context.Context, req reconcile.Request) (ctrl.Result, error) {
	const attempts = 5
	w := &v1.Widget{}
	var err error
	for range attempts {
		if err = r.client.Get(ctx, req.NamespacedName, w); err != nil {
			break
		}
		base := w.DeepCopy()
		w.Status.ObservedGeneration = w.Generation
		meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Reconciled", ObservedGeneration: w.Generation})
		if err = r.client.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})); !apierrors.IsConflict(err) {
			break
		}
	}
	return ctrl.Result{}, report(ctx, r.results, err)
}

// report hands a reconcile's outcome to the test, and returns it so that
// a failure is requeued with the controller's backoff.
func report(ctx context.Context, results chan<- error, err error) error {
	select {
	case results <- err:
	case <-ctx.Done():
	}
	return err
}

// next is the outcome of the next reconcile. The timeout only turns a hang
// into a failure.
func next(t *testing.T, results <-chan error) error {
	t.Helper()
	select {
	case err := <-results:
		return err
	case <-time.After(time.Minute):
		t.Fatal("no reconcile finished within a minute")
		return nil
	}
}

// channelController registers r on mgr, reconciling only what is sent on
// events (no watch of its own: the cache's lag must not hide the trigger),
// with failures requeued within milliseconds.
func channelController(mgr manager.Manager, name string, events <-chan event.GenericEvent, r reconcile.Reconciler) error {
	return ctrl.NewControllerManagedBy(mgr).
		Named(name).
		WatchesRawSource(source.Channel(events, &handler.EnqueueRequestForObject{})).
		WithOptions(controller.Options{RateLimiter: workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](time.Millisecond, 20*time.Millisecond)}).
		Complete(r)
}

func genericEvent(key client.ObjectKey) event.GenericEvent {
	w := &v1.Widget{}
	w.Name, w.Namespace = key.Name, key.Namespace
	return event.GenericEvent{Object: w}
}

func readyFor(w *v1.Widget) bool {
	c := meta.FindStatusCondition(w.Status.Conditions, "Ready")
	return c != nil && c.Status == metav1.ConditionTrue && c.ObservedGeneration == w.Generation
}

// conflictsByName counts 409 responses, per object name.
type conflictsByName struct {
	mu    sync.Mutex
	paths []string
}

func (c *conflictsByName) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		resp, err := rt.RoundTrip(req)
		if err == nil && resp.StatusCode == http.StatusConflict {
			c.mu.Lock()
			c.paths = append(c.paths, req.URL.Path)
			c.mu.Unlock()
		}
		return resp, err
	})
}

func (c *conflictsByName) count(name string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, p := range c.paths {
		if strings.HasSuffix(p, "/"+name) || strings.Contains(p, "/"+name+"/") {
			n++
		}
	}
	return n
}
