package explore_test

import (
	"context"
	"fmt"
	"sync/atomic"
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

// stampReconciler is settingsReconciler that also writes the settings
// (an annotation) once Widget w is labelled: a step writes an object
// there before Run in the schedules where the label comes first only.
// absent counts the reconciles of w that read no settings.
type stampReconciler struct {
	c      client.Client
	absent *atomic.Int64
}

func (r *stampReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	if req.Name != "w" {
		return ctrl.Result{}, nil
	}
	settings := &testv1.Widget{}
	if err := r.c.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "settings"}, settings); err != nil {
		if apierrors.IsNotFound(err) {
			r.absent.Add(1)
		}
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if w.Labels["team"] == "a" && settings.Annotations["stamped"] == "" {
		patch := client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"annotations":{"stamped":"yes"}}}`))
		if err := r.c.Patch(ctx, settings, patch); err != nil {
			return ctrl.Result{}, err
		}
	}
	err := r.c.Create(ctx, &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}})
	if apierrors.IsAlreadyExists(err) {
		return ctrl.Result{}, nil
	}
	return ctrl.Result{}, err
}

// An object there before Run that a step writes in some schedules only:
// every schedule, before and after one that wrote it, starts with it
// there. A reset that deletes it once a step wrote it runs every later
// schedule without it, so what the reconciler does with it (here: the
// Gizmo) is never explored again, and the search's verdict depends on
// the order it met its schedules in, which a replay does not repeat.
func TestResetRestoresWhatWasThereBeforeAndAStepWrote(t *testing.T) {
	// Failed at 84ef393: the first schedule (its reconcile after the
	// label) stamps the settings, the reset deleted them (a step wrote
	// them), and the second reported no Gizmo, replay "-", which on a
	// fresh server reads the settings and passes. The reset restores
	// such an object to its first version (internal/reset, restore.go).
	env := server(t)
	settings := &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "settings"}}
	if err := env.Client.Create(t.Context(), settings); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = env.Client.Delete(context.Background(), settings) })
	var absent atomic.Int64
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "stamp", For: &testv1.Widget{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler {
				return &stampReconciler{c: c, absent: &absent}
			}}},
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
	if n := absent.Load(); n != 0 || res.Violation != nil || !res.Exhausted || res.Schedules < 2 {
		t.Fatalf("want every schedule (at least 2) to read the settings, no violation; got %d reconciles without them, %d schedules, exhausted %v:\n%v",
			n, res.Schedules, res.Exhausted, res.Violation)
	}
}
