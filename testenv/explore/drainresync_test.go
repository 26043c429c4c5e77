package explore_test

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// reconcileCounter counts its reconciles of a Widget in its status: every
// reconcile writes.
type reconcileCounter struct{ c client.Client }

func (r *reconcileCounter) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if w.Status.Counters == nil {
		w.Status.Counters = map[string]int64{}
	}
	w.Status.Counters["reconciles"]++
	return ctrl.Result{}, r.c.Status().Update(ctx, w)
}

// The drain's rounds over every object are an informer's resync, an
// update of the newest version to itself, which controller-runtime's
// source.Kind runs through the watch's predicates as any event:
// GenerationChangedPredicate drops it, as it drops the reconcileCounter's own
// status writes, so a real manager reconciles the Widget once and never
// again. Before, the drain re-queued every object unfiltered: the
// reconcileCounter wrote in every round, and the search reported that the drain
// never reaches a steady state, a reconcile no manager runs (a false
// alarm), both through the operator's SetupWithManager and through
// Reconciler.Predicates.
func TestDrainResyncRunsThePredicates(t *testing.T) {
	widget := &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}
	gen := []predicate.Predicate{predicate.GenerationChangedPredicate{}}
	for name, s := range map[string]explore.Scenario{
		"Setup": {Objects: []client.Object{widget}, Setup: func(mgr ctrl.Manager) error {
			return ctrl.NewControllerManagedBy(mgr).Named("counter").For(&testv1.Widget{}, builder.WithPredicates(gen...)).Complete(&reconcileCounter{c: mgr.GetClient()})
		}},
		"Predicates": {Objects: []client.Object{widget}, Reconcilers: []explore.Reconciler{{Name: "counter", For: &testv1.Widget{}, Predicates: gen,
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return &reconcileCounter{c: c} }}}},
	} {
		t.Run(name, func(t *testing.T) {
			o := serverOptions(t)
			o.MaxSteps = 20 // before, every drain round wrote: no steady state within it
			res, err := explore.Run(t.Context(), s, o)
			if err != nil {
				t.Fatal(err)
			}
			if res.Violation != nil || !res.Exhausted {
				t.Fatalf("want no violation, every schedule run; got %d schedules, exhausted %t:\n%v", res.Schedules, res.Exhausted, res.Violation)
			}
		})
	}
}
