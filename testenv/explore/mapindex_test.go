package explore_test

import (
	"context"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// A Watches map function that finds its requests with a cached List by a
// field index (as KubeRay and LWS map Pods to their owners) is served from
// the index Setup registers: the written Gizmo maps to the Widget whose
// spec.data names it. Without the index, its List fails with the error a
// manager's cache gives, naming IndexField, not an empty answer.
func TestSetupMapFuncListsByIndex(t *testing.T) {
	for _, indexed := range []bool{true, false} {
		var mapped []string
		var errs []error
		s := explore.Scenario{
			Objects: []client.Object{
				&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}, Spec: testv1.WidgetSpec{Data: "g"}},
				&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "other"}, Spec: testv1.WidgetSpec{Data: "x"}},
			},
			Actions: []explore.Action{{Name: "add-gizmo", Run: func(ctx context.Context, c client.Client) error {
				return c.Create(ctx, &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "g"}})
			}}},
			Setup: func(mgr ctrl.Manager) error {
				if indexed {
					if err := mgr.GetFieldIndexer().IndexField(context.Background(), &testv1.Widget{}, "spec.data", func(o client.Object) []string {
						return []string{o.(*testv1.Widget).Spec.Data}
					}); err != nil {
						return err
					}
				}
				c := mgr.GetClient()
				return ctrl.NewControllerManagedBy(mgr).Named("counter").For(&testv1.Widget{}).
					Watches(&testv1.Gizmo{}, handler.EnqueueRequestsFromMapFunc(func(ctx context.Context, o client.Object) []reconcile.Request {
						var l testv1.WidgetList
						if err := c.List(ctx, &l, client.InNamespace(o.GetNamespace()), client.MatchingFields{"spec.data": o.GetName()}); err != nil {
							errs = append(errs, err)
							return nil
						}
						var out []reconcile.Request
						for _, w := range l.Items {
							mapped = append(mapped, w.Name)
							out = append(out, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&w)})
						}
						return out
					})).
					Complete(reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) { return reconcile.Result{}, nil }))
			},
		}
		o := serverOptions(t)
		o.Replay = "!add-gizmo"
		res, err := explore.Run(t.Context(), s, o)
		if err != nil || res.Violation != nil {
			t.Fatalf("indexed %t: got %v, %v", indexed, err, res.Violation)
		}
		if indexed && (len(errs) > 0 || len(mapped) == 0 || strings.Join(mapped, ",") != strings.Repeat("w,", len(mapped)-1)+"w") {
			t.Fatalf("with the index: the map function mapped the Gizmo to %q (errors %v), want only Widget w", mapped, errs)
		}
		if !indexed && (len(errs) == 0 || !strings.Contains(errs[0].Error(), "IndexField")) {
			t.Fatalf("without the index: want the List's error naming IndexField, got %v (mapped %q)", errs, mapped)
		}
	}
}
