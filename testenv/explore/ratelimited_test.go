package explore_test

import (
	"context"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// rateLimited is Cluster API's reconcilerWrapper (util/controller, on
// by default with its ReconcilerRateLimiting gate) in small: a reconcile
// of an object within interval of its last one returns RequeueAfter the
// rest of the interval and reads nothing; any other sets the Widget's
// status.observedGeneration to its generation.
type rateLimited struct {
	c        client.Client
	interval time.Duration
	mu       sync.Mutex
	last     map[types.NamespacedName]time.Time
}

func (r *rateLimited) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	r.mu.Lock()
	now := time.Now()
	if at, ok := r.last[req.NamespacedName]; ok && now.Sub(at) < r.interval {
		r.mu.Unlock()
		return ctrl.Result{RequeueAfter: r.interval - now.Sub(at)}, nil
	}
	r.last[req.NamespacedName] = now
	r.mu.Unlock()
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if w.Status.ObservedGeneration == w.Generation {
		return ctrl.Result{}, nil
	}
	base := w.DeepCopy()
	w.Status.ObservedGeneration = w.Generation
	return ctrl.Result{}, r.c.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
}

// A reconcile that asked to be called again after a delay and read
// nothing did not look at the state: a drain round of such reconciles,
// though it writes nothing, is no steady state. The drain waits out the
// delay (Cluster API's: at most a second) and runs the round again. Before,
// the user's resize followed by a rate-limited reconcile was judged a
// steady state with status.observedGeneration stuck below the
// generation, an object stuck (rank 3), on Cluster API's
// MachineDeployment controller (examples/realops6) as here.
func TestDrainWaitsOutARateLimitedReconcile(t *testing.T) {
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "widget", For: &testv1.Widget{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler {
				return &rateLimited{c: c, interval: 300 * time.Millisecond, last: map[types.NamespacedName]time.Time{}}
			}}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Actions: []explore.Action{{Name: "resize", Run: func(ctx context.Context, c client.Client) error {
			return c.Patch(ctx, &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}, Spec: testv1.WidgetSpec{Size: 2}}, client.Merge)
		}}},
	}
	o := serverOptions(t)
	o.Depth = 2
	res, err := explore.Run(t.Context(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted {
		t.Fatalf("want no violation, every schedule run; got %d schedules, exhausted %v:\n%v", res.Schedules, res.Exhausted, res.Violation)
	}
	t.Logf("no violation in %d schedules (%s)", res.Schedules, res.Elapsed.Round(time.Millisecond))
}
