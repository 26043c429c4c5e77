package explore_test

import (
	"strings"
	"testing"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/source"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// A controller whose name has an underscore, as controller.New takes it
// (openshift/cluster-autoscaler-operator's "machine_autoscaler_controller";
// controller-runtime allows any name), is explored, and its seed replays:
// the stale-parent bug is found under that name. Before, Setup refused
// it as not [A-Za-z0-9.-], and the operator's code cannot rename it.
func TestSetupControllerNameWithUnderscore(t *testing.T) {
	s := gizmoScenario(gizmoReconciler{staleParent: true})
	s.Reconcilers = nil
	s.Setup = func(mgr ctrl.Manager) error {
		r := &gizmoReconciler{staleParent: true}
		r.c, r.api = mgr.GetClient(), mgr.GetAPIReader()
		c, err := controller.New("widget_controller", mgr, controller.Options{Reconciler: r})
		if err != nil {
			return err
		}
		if err := c.Watch(source.Kind(mgr.GetCache(), &testv1.Widget{}, &handler.TypedEnqueueRequestForObject[*testv1.Widget]{},
			predicate.TypedGenerationChangedPredicate[*testv1.Widget]{})); err != nil {
			return err
		}
		return c.Watch(source.Kind(mgr.GetCache(), &testv1.Gizmo{},
			handler.TypedEnqueueRequestForOwner[*testv1.Gizmo](mgr.GetScheme(), mgr.GetRESTMapper(), &testv1.Widget{}, handler.OnlyControllerOwner())))
	}
	res, err := explore.Run(t.Context(), s, serverOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || v.Invariant != explore.InvariantOwnDelete || !strings.HasPrefix(v.Seed, "widget_controller:ns/w@") {
		t.Fatalf("stale parent under a controller named with an underscore: want the own delete, got:\n%v", v)
	}
	o := serverOptions(t)
	o.Replay = v.Seed
	res, err = explore.Run(t.Context(), s, o)
	if err != nil {
		t.Fatalf("replay of %q: %v", v.Seed, err)
	}
	if res.Diverged != "" || res.Violation == nil {
		t.Fatalf("replay of %q: diverged %q, violation:\n%v", v.Seed, res.Diverged, res.Violation)
	}
}
