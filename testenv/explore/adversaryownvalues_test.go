package explore_test

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// resetter, a second reconciler of Widget ns/ov-w, resets its Gizmo
// once the Widget is annotated reset=1: deletes it and creates it again,
// labelled size=0 by its own decision (the value sizeApplier's first
// apply set) and annotated reset=1.
type resetter struct{ c client.Client }

func (r *resetter) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil || w.Annotations["reset"] != "1" {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	g := &testv1.Gizmo{}
	if err := r.c.Get(ctx, req.NamespacedName, g); client.IgnoreNotFound(err) != nil || g.Annotations["reset"] == "1" {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	} else if err == nil {
		if err := r.c.Delete(ctx, g); client.IgnoreNotFound(err) != nil {
			return ctrl.Result{}, err
		}
	}
	g = &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, Name: w.Name,
		Labels: map[string]string{"size": "0"}, Annotations: map[string]string{"reset": "1"}}}
	if err := controllerutil.SetControllerReference(w, g, r.c.Scheme()); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.c.Create(ctx, g)
}

// TestLostWriteOverAnotherReconcilersCreate: step 1 applies the Gizmo
// with size=0 (v2); the user grows the Widget and marks it for reset;
// the resetter deletes the Gizmo and creates it again with size=0, its
// own decision (v4); step 5 reads the old Gizmo (v2) from a stale cache
// (its absence v1 is not among the informer's versions) and applies
// size=1 over v4. v4's size equals what step 5 saw and what
// sizeApplier's apply set at v2, but another reconciler's write set it
// (the explorer records whose): that reconciler's field, overwritten
// unseen, and the loss stands, as over any other writer's; before, asSeen
// took it back (and ownValues, unit case in the judge, judged it as
// sizeApplier's own), as for a user's replace copying the value.
func TestLostWriteOverAnotherReconcilersCreate(t *testing.T) {
	s := ownValuesScenario(false, "")
	s.Reconcilers = append(s.Reconcilers, explore.Reconciler{Name: "reset", For: &testv1.Widget{}, Owns: []client.Object{&testv1.Gizmo{}},
		New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return &resetter{c: c} }})
	s.Actions = []explore.Action{s.Actions[0], {Name: "mark", Run: func(ctx context.Context, c client.Client) error {
		return c.Patch(ctx, &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "ov-w"}},
			client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"annotations":{"reset":"1"}}}`)))
	}}}
	o := explore.Options{Replay: "widget:ns/ov-w@0,0 !grow !mark reset:ns/ov-w@0,0 widget:ns/ov-w@0,3",
		Disable: []string{explore.InvariantObservedGenerationStuck}} // it keeps no status
	replayLost(t, s, o, "Gizmo ns/ov-w: metadata.labels.size written by step 4 (v4) overwritten by step 5 (v5), which had seen only v2, by an apply")
}

// TestLostWriteOverOwnValuesAcrossALeaderChange: ownValuesScenario's
// schedule with a leader change right after step 1's apply, whose
// standby (its cache run all along) makes step 4's stale read: the
// values the old leader's apply set are the same reconciler's, and the
// loss is judged fresh with the same leader change, as without it
// (TestLostWriteOverOwnValuesJudgedFresh): nothing lost where the
// steady state owns the label, a loss where it sets it on create only.
func TestLostWriteOverOwnValuesAcrossALeaderChange(t *testing.T) {
	const lost = "Gizmo ns/ov-w: metadata.labels.size written by step 3 (v4) overwritten by step 4 (v5), which had seen only v1"
	for _, tc := range []struct {
		name     string
		onCreate bool
		lost     string // "": no violation
	}{
		{"the steady state owns the field", false, ""},
		{"a value set on create only", true, lost + " (values widget's own earlier write set under the name)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := explore.Options{Crashes: 1, LeaderChange: true, Replay: "widget:ns/ov-w@0,0#1L !grow !replace widget:ns/ov-w@0,3",
				Disable: []string{explore.InvariantObservedGenerationStuck}} // it keeps no status
			replayLost(t, ownValuesScenario(tc.onCreate, ""), o, tc.lost)
		})
	}
}
