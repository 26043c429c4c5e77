package explore_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// sizedGizmo gives a Widget of spec.size > 0 one Gizmo by generateName and
// records its name in status.plan.id: a crash between the two leaks a
// Gizmo. A Widget read with size 0 is read again through the cache (a
// second cached read) before the reconcile gives up.
type sizedGizmo struct{ c client.Client }

func (r *sizedGizmo) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if w.Spec.Size == 0 {
		if err := r.c.Get(ctx, req.NamespacedName, w); err != nil || w.Spec.Size == 0 {
			return ctrl.Result{}, client.IgnoreNotFound(err)
		}
	}
	if w.Status.Plan != nil {
		return ctrl.Result{}, nil
	}
	g := &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, GenerateName: w.Name + "-"}}
	if err := controllerutil.SetControllerReference(w, g, r.c.Scheme()); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.c.Create(ctx, g); err != nil {
		return ctrl.Result{}, err
	}
	base := w.DeepCopy()
	w.Status.Plan = &testv1.WidgetPlan{ID: g.Name}
	w.Status.ObservedGeneration = w.Generation
	return ctrl.Result{}, r.c.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
}

// The search finds the leak after the resize as "!resize widget:ns/w@1,0#1":
// the first read stale (size 0), the second fresh, a crash after the
// create. The stale read is not needed: without it the step reads once,
// and the minimiser, going on from that shorter replay, must not index the
// two reads it started with (it did: index out of range [1] with length 1).
func TestMinimiseFollowsShorterReplay(t *testing.T) {
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "widget", For: &testv1.Widget{}, Owns: []client.Object{&testv1.Gizmo{}},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return &sizedGizmo{c: c} }}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Actions: []explore.Action{resize},
		Invariant: func(ctx context.Context, rd client.Reader) error {
			var l testv1.GizmoList
			if err := rd.List(ctx, &l, client.InNamespace("ns")); err != nil {
				return err
			}
			if len(l.Items) > 1 {
				return fmt.Errorf("%d Gizmos for Widget ns/w, want 1", len(l.Items))
			}
			return nil
		},
	}
	o := serverOptions(t)
	o.Crashes, o.LeaderChange = 1, true
	var res *explore.Result
	var err error
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("the search panicked: %v", p)
			}
		}()
		res, err = explore.Run(t.Context(), s, o)
	}()
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || v.Invariant != explore.InvariantUser || v.Seed != "!resize widget:ns/w@0#1" {
		t.Fatalf(`want the leaked Gizmo minimised to "!resize widget:ns/w@0#1", got:%v`, v)
	}
	if strings.Contains(v.String(), "STALE") {
		t.Fatalf("the minimised schedule keeps a stale read:\n%s", v)
	}
	t.Logf("found after %d schedules:\n%s", v.Schedules, v)
}
