package explore_test

import (
	"context"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// lister lists the Gizmos of its namespace through the cache, then sets
// its Widget's spec.size to 5 with an Update.
type lister struct{ c client.Client }

func (r *lister) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	if err := r.c.List(ctx, &testv1.GizmoList{}, client.InNamespace(req.Namespace)); err != nil {
		return ctrl.Result{}, err
	}
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil || w.Spec.Size == 5 {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	w.Spec.Size = 5
	return ctrl.Result{}, r.c.Update(ctx, w)
}

// A report prints a cached List as a cache read, and an Update with what
// it changed.
func TestReportShowsCachedListAndUpdateDiff(t *testing.T) {
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "lister", For: &testv1.Widget{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return &lister{c: c} }}},
		Objects: []client.Object{
			&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}},
			&testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "g"}},
		},
	}
	o := serverOptions(t)
	o.Depth = 1
	o.Disable = []string{explore.InvariantObservedGenerationStuck}
	_, schedules, err := explore.RunSteps(t.Context(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(schedules) == 0 || len(schedules[0]) == 0 {
		t.Fatal("no schedule ran")
	}
	first := schedules[0][0].String()
	for _, want := range []string{"read  Gizmo ns/g v1 (cache, list)", "write update Widget ns/w based on v1 spec.size: <none> -> 5: ok -> v2"} {
		if !strings.Contains(first, want) {
			t.Errorf("want %q in the report of the step:\n%s", want, first)
		}
	}
}
