package explore_test

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// knownScenario keeps, as kueue's queue manager does, what its channel's
// handler saw: "gizmo" (For Gizmo) pushes each Gizmo it reconciles to a
// channel; the channel's handler records the Gizmo as known and queues
// the summary Widget, whose reconciler ("summary") sets its phase to the
// number of Gizmos known. The summary is right once every Gizmo's push
// was delivered and the summary reconciled after it.
func knownScenario() explore.Scenario {
	gizmo := func(name string) *testv1.Gizmo {
		return &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name}}
	}
	return explore.Scenario{
		Objects: []client.Object{gizmo("g1"), gizmo("g2"), &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: summaryKey.Namespace, Name: summaryKey.Name}}},
		Setup: func(mgr ctrl.Manager) error {
			var mu sync.Mutex
			known := map[string]bool{}
			pushed := make(chan event.GenericEvent) // unbuffered: the explorer's pump takes each push
			c := mgr.GetClient()
			push := reconcile.Func(func(_ context.Context, req reconcile.Request) (reconcile.Result, error) {
				pushed <- event.GenericEvent{Object: gizmo(req.Name)}
				return reconcile.Result{}, nil
			})
			if err := ctrl.NewControllerManagedBy(mgr).Named("gizmo").For(&testv1.Gizmo{}).Complete(push); err != nil {
				return err
			}
			toSummary := handler.EnqueueRequestsFromMapFunc(func(_ context.Context, o client.Object) []reconcile.Request {
				mu.Lock()
				known[o.GetName()] = true
				mu.Unlock()
				return []reconcile.Request{{NamespacedName: summaryKey}}
			})
			summary := reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
				w := &testv1.Widget{}
				if err := c.Get(ctx, req.NamespacedName, w); err != nil {
					return reconcile.Result{}, client.IgnoreNotFound(err)
				}
				mu.Lock()
				n := strconv.Itoa(len(known))
				mu.Unlock()
				if w.Status.Phase == n {
					return reconcile.Result{}, nil
				}
				w.Status.Phase = n
				return reconcile.Result{}, c.Status().Update(ctx, w)
			})
			return ctrl.NewControllerManagedBy(mgr).Named("summary").For(&testv1.Widget{}).
				WatchesRawSource(source.Channel(pushed, toSummary)).Complete(summary)
		},
		Invariant: func(ctx context.Context, r client.Reader) error {
			var l testv1.GizmoList
			if err := r.List(ctx, &l, client.InNamespace("ns")); err != nil {
				return err
			}
			w := &testv1.Widget{}
			if err := r.Get(ctx, summaryKey, w); err != nil {
				return fmt.Errorf("summary: %w", err)
			}
			if w.Status.Phase != strconv.Itoa(len(l.Items)) {
				return fmt.Errorf("summary phase %q, want %d Gizmos known", w.Status.Phase, len(l.Items))
			}
			return nil
		},
	}
}

// A pushed event delivered in a drain's round queues a reconcile that
// ran earlier in the round: controller-runtime's queue runs it again
// (an item added after it was taken is queued anew), and so does the
// round. Before, it waited for the next round, and a round that wrote
// nothing else was judged steady with it still queued: the summary,
// reconciled before the second Gizmo's push was delivered, was judged
// wrong (a false alarm of the scenario's invariant).
func TestDrainRunsWhatAPushQueuesAfterItRan(t *testing.T) {
	res, err := explore.Run(t.Context(), knownScenario(), serverOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted {
		t.Fatalf("want no violation, every schedule run; got %d schedules, exhausted %t:\n%v", res.Schedules, res.Exhausted, res.Violation)
	}
	t.Logf("%d schedules", res.Schedules)
}
