package explore_test

import (
	"context"
	"fmt"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// settingsReconciler gives Widget w a Gizmo once it reads the Widget
// "settings", an object the test made before Run and no step writes
// (trust-manager lists the Namespaces the test made, to copy its bundle
// into each).
type settingsReconciler struct{ c client.Client }

func (r *settingsReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	if req.Name != "w" {
		return ctrl.Result{}, nil
	}
	if err := r.c.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "settings"}, &testv1.Widget{}); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	err := r.c.Create(ctx, &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}})
	if apierrors.IsAlreadyExists(err) {
		return ctrl.Result{}, nil
	}
	return ctrl.Result{}, err
}

// The reset between schedules leaves an object that was there before
// Run and that the schedule only read: every schedule, not only the
// first, reads the settings and makes the Gizmo. It deleted the settings
// once, and the schedules after the first read them absent.
func TestResetLeavesWhatWasThereBefore(t *testing.T) {
	env := server(t)
	settings := &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "settings"}}
	if err := env.Client.Create(t.Context(), settings); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = env.Client.Delete(context.Background(), settings) })
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "settings", For: &testv1.Widget{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return &settingsReconciler{c: c} }}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Actions: []explore.Action{{Name: "label", Run: func(ctx context.Context, c client.Client) error {
			return c.Patch(ctx, &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}},
				client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"labels":{"team":"a"}}}`)))
		}}},
		Invariant: func(ctx context.Context, r client.Reader) error {
			if err := r.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "w"}, &testv1.Gizmo{}); err != nil {
				return fmt.Errorf("no Gizmo for Widget ns/w: %w", err)
			}
			return nil
		},
	}
	res, err := explore.Run(t.Context(), s, serverOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted || res.Schedules < 2 {
		t.Fatalf("want every schedule (at least 2) to read the settings, no violation; got %d schedules, exhausted %v:\n%v", res.Schedules, res.Exhausted, res.Violation)
	}
	if err := env.Client.Get(t.Context(), client.ObjectKeyFromObject(settings), &testv1.Widget{}); err != nil {
		t.Fatalf("the settings after the search: %v", err)
	}
}
