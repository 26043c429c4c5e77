package explore_test

import (
	"strings"
	"sync/atomic"
	"testing"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// A typed watch, source.Kind[*T] with a typed handler and typed
// predicates (controller-runtime's generic sources), is accepted by
// Setup and queues as Owns does: the stale-parent bug, whose second
// reconcile comes from the Gizmo's create through that watch, is found
// as through Owns (TestSetupWithManager). Before, Setup refused it as
// "not a Kind source with a handler".
// So is a controller made with controller.New whose every watch is typed
// (Katib's): its For is the watch whose handler queues the object itself,
// TypedEnqueueRequestForObject, wherever it comes.
func TestSetupTypedWatch(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(mgr ctrl.Manager, r *gizmoReconciler, owner handler.TypedEventHandler[*testv1.Gizmo, reconcile.Request], every predicate.TypedPredicate[*testv1.Gizmo]) error
	}{
		{"builder", func(mgr ctrl.Manager, r *gizmoReconciler, owner handler.TypedEventHandler[*testv1.Gizmo, reconcile.Request], every predicate.TypedPredicate[*testv1.Gizmo]) error {
			return ctrl.NewControllerManagedBy(mgr).
				For(&testv1.Widget{}, builder.WithPredicates(predicate.GenerationChangedPredicate{})).
				WatchesRawSource(source.Kind(mgr.GetCache(), &testv1.Gizmo{}, owner, every)).
				Complete(r)
		}},
		{"controller.New, the For watch second", func(mgr ctrl.Manager, r *gizmoReconciler, owner handler.TypedEventHandler[*testv1.Gizmo, reconcile.Request], every predicate.TypedPredicate[*testv1.Gizmo]) error {
			c, err := controller.New("widget", mgr, controller.Options{Reconciler: r})
			if err != nil {
				return err
			}
			if err := c.Watch(source.Kind(mgr.GetCache(), &testv1.Gizmo{}, owner, every)); err != nil {
				return err
			}
			return c.Watch(source.Kind(mgr.GetCache(), &testv1.Widget{}, &handler.TypedEnqueueRequestForObject[*testv1.Widget]{},
				predicate.TypedGenerationChangedPredicate[*testv1.Widget]{}))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := gizmoScenario(gizmoReconciler{staleParent: true})
			s.Reconcilers = nil
			var calls atomic.Int64
			s.Setup = func(mgr ctrl.Manager) error {
				r := &gizmoReconciler{staleParent: true}
				r.c, r.api = mgr.GetClient(), mgr.GetAPIReader()
				owner := handler.TypedEnqueueRequestForOwner[*testv1.Gizmo](mgr.GetScheme(), mgr.GetRESTMapper(), &testv1.Widget{}, handler.OnlyControllerOwner())
				every := predicate.NewTypedPredicateFuncs(func(*testv1.Gizmo) bool { calls.Add(1); return true })
				return tc.setup(mgr, r, owner, every)
			}
			res, err := explore.Run(t.Context(), s, serverOptions(t))
			if err != nil {
				t.Fatal(err)
			}
			v := res.Violation
			if v == nil || v.Invariant != explore.InvariantOwnDelete || !strings.HasPrefix(v.Seed, "widget:ns/w@") {
				t.Fatalf("stale parent through a typed watch: want the own delete, got:\n%v", v)
			}
			if calls.Load() == 0 {
				t.Fatal("the typed predicate was never called")
			}
		})
	}
}
