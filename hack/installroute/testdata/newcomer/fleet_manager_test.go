package controller

// Written into the scaffold beside widget_manager_test.go by the newcomer
// route (hack/installroute, managercounts.go): the fleet, issue 80's six
// shapes of status write and kubebuilder's deploy-image tutorial's, each
// on its own kind, under the same manager.
// fleetAtOnce objects of each shape's kind are created with the Widgets;
// each gets a token its reconciler hands out once (from a counter of its
// own: shipTokens, ...). When every token is stored, the test prints a
// line per shape: reconciles of its controller, reconcile errors and
// conflicts logged by it, and tokens handed out beyond one per object
// (decisions made twice: a token handed out again after a write was
// refused, or one stored over another).

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "example.com/widgets/api/v1"
)

const fleetAtOnce = 10

// shape is one shape of status write: the kind whose status is decided,
// the controller that decides it, and its token counter.
type shape struct {
	name       string // the route's name of the shape
	kind       string // the kind whose token is handed out
	controller string // the kind the controller is for
	tokens     *atomic.Int64
	setup      func(ctrl.Manager) error
}

var fleet = []shape{
	{"deferred", "Ship", "Ship", &shipTokens, (&ShipReconciler{}).SetupWithManager},
	{"retry-on-conflict", "Crate", "Crate", &crateTokens, (&CrateReconciler{}).SetupWithManager},
	{"list-loop", "Berth", "Dock", &berthTokens, (&DockReconciler{}).SetupWithManager},
	{"phase-values", "Voyage", "Voyage", &voyageTokens, (&VoyageReconciler{}).SetupWithManager},
	{"generic-helper", "Cargo", "Cargo", &cargoTokens, (&CargoReconciler{}).SetupWithManager},
	{"sub-reconciler", "Anchor", "Anchor", &anchorTokens, (&AnchorReconciler{}).SetupWithManager},
	{"tutorial", "Ferry", "Ferry", &ferryTokens, (&FerryReconciler{}).SetupWithManager},
}

// docks are the Docks the Berths are labelled with.
const docks = 2

// fleetObjects are fleetAtOnce objects of each shape's kind (each Berth
// labelled with one of the Docks), and the Docks.
func fleetObjects() []client.Object {
	var out []client.Object
	obj := func(kind, name string) *unstructured.Unstructured {
		u := &unstructured.Unstructured{}
		u.SetAPIVersion(widgetsv1.GroupVersion.String())
		u.SetKind(kind)
		u.SetNamespace("default")
		u.SetName(name)
		return u
	}
	for d := range docks {
		out = append(out, obj("Dock", fmt.Sprintf("dock%d", d)))
	}
	for _, s := range fleet {
		for i := range fleetAtOnce {
			u := obj(s.kind, fmt.Sprintf("%s%02d", strings.ToLower(s.kind), i))
			if s.kind == "Berth" {
				u.SetLabels(map[string]string{"dock": fmt.Sprintf("dock%d", i%docks)})
			}
			out = append(out, u)
		}
	}
	return out
}

// fleetUndecided are the fleet's objects whose token is not stored (read
// from the server: c is uncached), or that are not all there yet.
func fleetUndecided(ctx context.Context, t *testing.T, c client.Client) []string {
	var out []string
	for _, s := range fleet {
		list := &unstructured.UnstructuredList{}
		list.SetAPIVersion(widgetsv1.GroupVersion.String())
		list.SetKind(s.kind + "List")
		if err := c.List(ctx, list, client.InNamespace("default")); err != nil {
			t.Fatal(err)
		}
		if len(list.Items) != fleetAtOnce {
			out = append(out, fmt.Sprintf("%d of %d %ss", len(list.Items), fleetAtOnce, s.kind))
		}
		for _, u := range list.Items {
			token, _, _ := unstructured.NestedString(u.Object, "status", "token")
			phase, _, _ := unstructured.NestedString(u.Object, "status", "phase")
			if token == "" || s.kind == "Voyage" && phase != "Sailing" || s.kind == "Ferry" && !available(u) {
				out = append(out, fmt.Sprintf("%s %s %v", s.kind, u.GetName(), u.Object["status"]))
			}
		}
	}
	return out
}

// available reports whether u's Available condition is True.
func available(u unstructured.Unstructured) bool {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		if m, ok := c.(map[string]any); ok && m["type"] == "Available" {
			return m["status"] == "True"
		}
	}
	return false
}

// fleetDeleted deletes the Ferries, whose reconciler writes their status
// in its deletion branch (around a re-read) before it removes its
// finalizer, and waits until the server has removed them all (c is
// uncached); a bound on the wait, not a measurement.
func fleetDeleted(ctx context.Context, t *testing.T, c client.Client, logs fmt.Stringer) {
	if err := c.DeleteAllOf(ctx, &widgetsv1.Ferry{}, client.InNamespace("default")); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		var list widgetsv1.FerryList
		if err := c.List(ctx, &list, client.InNamespace("default")); err != nil {
			t.Fatal(err)
		}
		if len(list.Items) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d Ferries not deleted after 3 minutes: %+v\nthe manager's log:\n%s", len(list.Items), list.Items[0], logs)
		}
	}
}

// fleetCounts prints a line per shape.
func fleetCounts(t *testing.T, log string) {
	for _, s := range fleet {
		failed, conflicts := logCounts(log, s.controller)
		if failed > 0 {
			// What failed, so the route's line can be read without a rerun.
			for _, l := range strings.Split(log, "\n") {
				if strings.Contains(l, "Reconciler error") && strings.Contains(l, `"controllerKind": "`+s.controller+`"`) && !strings.Contains(l, "context canceled") && !strings.Contains(l, `not found"}`) {
					t.Logf("%s: %s", s.name, l)
				}
			}
		}
		t.Logf("manager counts: shape=%s kind=%s objects=%d reconciles=%d reconcile-errors=%d conflicts-logged=%d decisions-twice=%d",
			s.name, s.kind, fleetAtOnce, reconcileCount(t, strings.ToLower(s.controller)), failed, conflicts, int(s.tokens.Load())-fleetAtOnce)
	}
}
