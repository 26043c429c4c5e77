package explore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
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

// labeler gives each Widget a Gizmo labelled size=<spec.size>, by a
// server-side apply (field manager "widget", forced) in every reconcile,
// as LeaderWorkerSet applies its leader StatefulSet: it first reads the
// Gizmo from the cache (LWS reads its StatefulSet to plan the rollout), a
// read that may be stale or find nothing, and applies the same whatever it
// found.
type labeler struct{ c client.Client }

func (r *labeler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := r.c.Get(ctx, req.NamespacedName, &testv1.Gizmo{}); client.IgnoreNotFound(err) != nil {
		return ctrl.Result{}, err
	}
	g := &testv1.Gizmo{TypeMeta: metav1.TypeMeta{APIVersion: testv1.GroupVersion.String(), Kind: "Gizmo"},
		ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, Name: w.Name,
			Labels: map[string]string{"size": strconv.Itoa(int(w.Spec.Size))}}}
	if err := controllerutil.SetControllerReference(w, g, r.c.Scheme()); err != nil {
		return ctrl.Result{}, err
	}
	data, err := json.Marshal(g)
	if err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.c.Patch(ctx, g, client.RawPatch(types.ApplyPatchType, data), client.FieldOwner("widget"), client.ForceOwnership)
}

func labelerScenario(actions ...explore.Action) explore.Scenario {
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "widget", For: &testv1.Widget{}, Owns: []client.Object{&testv1.Gizmo{}},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return &labeler{c: c} }}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Actions: actions,
	}
}

// relabel is a user's kubectl label --overwrite of the Gizmo's size label:
// an update by another field manager, from the newest version.
var relabel = explore.Action{Name: "relabel", Run: func(ctx context.Context, c client.Client) error {
	g := &testv1.Gizmo{}
	if err := c.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "w"}, g); err != nil {
		return client.IgnoreNotFound(err)
	}
	g.Labels["size"] = "99"
	return c.Update(ctx, g)
}}

// LeaderWorkerSet's false alarm: an apply restates the whole intent of its
// field manager, so an apply from a stale read (here: the Gizmo not yet in
// the cache) that changes fields only its own manager's earlier apply set
// (the managedFields of the version it replaced say so) loses no write.
// The same apply over a field another manager set (the user's label),
// without having seen that version, is still a lost write.
func TestApplyRestatingItsOwnFieldsLosesNothing(t *testing.T) {
	o := serverOptions(t)
	o.Disable = []string{explore.InvariantObservedGenerationStuck} // it keeps no status
	res, err := explore.Run(t.Context(), labelerScenario(resize), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted {
		t.Fatalf("an apply restating its own manager's fields: want every schedule run without violation, got exhausted %t after %d schedules:\n%v",
			res.Exhausted, res.Schedules, res.Violation)
	}
	t.Logf("%d schedules, no violation", res.Schedules)

	res, err = explore.Run(t.Context(), labelerScenario(relabel), o)
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || v.Invariant != explore.InvariantLostWrite || !strings.Contains(v.Message, "Gizmo ns/w: metadata.labels.size written by step ") {
		t.Fatalf("the apply over the user's label, unseen: want %s on metadata.labels.size, got:\n%v", explore.InvariantLostWrite, v)
	}
	var by int
	if _, err := fmt.Sscanf(v.Message[strings.Index(v.Message, "written by step "):], "written by step %d", &by); err != nil {
		t.Fatalf("%q: %v", v.Message, err)
	}
	for _, st := range v.Steps {
		if st.Index == by && st.Reconciler != "action relabel" {
			t.Fatalf("the lost label was written by step %d (%s), want the user's relabel:\n%s", by, st.Reconciler, v)
		}
	}
	t.Logf("found after %d schedules:\n%s", v.Schedules, v)
}
