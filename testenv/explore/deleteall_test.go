package explore_test

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// sweeper deletes every Gizmo labelled with its Widget's name once the
// Widget's spec.data is "off", with one DeleteAllOf.
type sweeper struct{ c client.Client }

func (r *sweeper) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil || w.Spec.Data != "off" {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return ctrl.Result{}, r.c.DeleteAllOf(ctx, &testv1.Gizmo{}, client.InNamespace(w.Namespace), client.MatchingLabels{"widget": w.Name})
}

// DeleteAllOf is recorded as the deletions the server makes: each
// matching object's, none of the others'.
func TestDeleteAllOfRecorded(t *testing.T) {
	gizmo := func(name, widget string) *testv1.Gizmo {
		return &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, Labels: map[string]string{"widget": widget}}}
	}
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "sweeper", For: &testv1.Widget{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return &sweeper{c: c} }}},
		Objects: []client.Object{
			&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}, Spec: testv1.WidgetSpec{Data: "off"}},
			gizmo("g1", "w"), gizmo("g2", "w"), gizmo("g3", "x"),
		},
	}
	o := serverOptions(t)
	o.Depth = 1
	_, schedules, err := explore.RunSteps(t.Context(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(schedules) == 0 || len(schedules[0]) == 0 {
		t.Fatal("no schedule ran")
	}
	first := schedules[0][0]
	gone := map[string]bool{}
	for _, w := range first.Writes {
		if w.Verb != "delete" || w.Answer != "ok" || !w.Gone {
			t.Fatalf("write %+v, want deletions that made the object gone:\n%s", w, first)
		}
		gone[w.Object] = true
	}
	if len(gone) != 2 || !gone["Gizmo ns/g1"] || !gone["Gizmo ns/g2"] || first.Result != "done" {
		t.Fatalf("want Gizmos ns/g1 and ns/g2 deleted, and only them, the reconcile done:\n%s", first)
	}
}
