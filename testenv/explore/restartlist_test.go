package explore_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// memoScenario is a controller that, as kueue's LocalQueue controller
// fills its queue manager, keeps in memory the Widgets its predicate sees
// created, and refuses to reconcile one it has not seen (kueue:
// "localQueue doesn't exist or inactive"); each reconcile marks the
// Widget's status. Its memory is the process's: Setup makes it anew.
func memoScenario() explore.Scenario {
	return explore.Scenario{
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Setup: func(mgr ctrl.Manager) error {
			var mu sync.Mutex
			known := map[types.NamespacedName]bool{}
			c := mgr.GetClient()
			memo := reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
				mu.Lock()
				ok := known[req.NamespacedName]
				mu.Unlock()
				if !ok {
					return reconcile.Result{}, errors.New("widget not known")
				}
				w := &testv1.Widget{}
				if err := c.Get(ctx, req.NamespacedName, w); err != nil {
					return reconcile.Result{}, client.IgnoreNotFound(err)
				}
				if w.Status.Phase == "seen" {
					return reconcile.Result{}, nil
				}
				w.Status.Phase = "seen"
				return reconcile.Result{}, c.Status().Update(ctx, w)
			})
			remember := predicate.Funcs{CreateFunc: func(e event.CreateEvent) bool {
				mu.Lock()
				defer mu.Unlock()
				known[client.ObjectKeyFromObject(e.Object)] = true
				return true
			}}
			return ctrl.NewControllerManagedBy(mgr).Named("memo").For(&testv1.Widget{}, builder.WithPredicates(remember)).Complete(memo)
		},
	}
}

// A new process's first list gives each watch a create event of every
// object, through its predicates, as an informer's initial list does: a
// controller that keeps what its predicates see knows the Widget after a
// restart and after a leader change. Before, the explorer queued the
// reconciles without an event, and the new process's memory stayed
// empty: "no error loop", a false alarm, on kueue's core controllers.
func TestRestartListsThroughPredicates(t *testing.T) {
	for _, seed := range []string{"memo:ns/w@0#1", "memo:ns/w@0#1L"} {
		o := serverOptions(t)
		o.Replay = seed
		res, err := explore.Run(t.Context(), memoScenario(), o)
		if err != nil || res.Violation != nil || res.Diverged != "" {
			t.Fatalf("replay of %q: %v, %+v", seed, err, res)
		}
	}
	o := serverOptions(t)
	o.Crashes, o.LeaderChange = 1, true
	res, err := explore.Run(t.Context(), memoScenario(), o)
	if err != nil || res.Violation != nil || !res.Exhausted {
		t.Fatalf("search with a crash: want no violation, every schedule run; got %v, %+v", err, res)
	}
}
