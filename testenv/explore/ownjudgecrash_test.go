package explore_test

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// childKeeper acknowledges its Widget's generation in status, then keeps
// a Gizmo child while spec.size is above 0 and deletes it at 0; it also
// reads Gizmo cfg, which decides nothing (a setting it would log).
type childKeeper struct{ c client.Client }

func (r childKeeper) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w, cfg := &testv1.Widget{}, &testv1.Gizmo{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := r.c.Get(ctx, client.ObjectKey{Namespace: req.Namespace, Name: "cfg"}, cfg); err != nil {
		return ctrl.Result{}, err
	}
	base := w.DeepCopy()
	w.Status.ObservedGeneration = w.Generation
	if err := r.c.Status().Patch(ctx, w, client.MergeFrom(base)); err != nil {
		return ctrl.Result{}, err
	}
	child := &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: req.Namespace, Name: "child"}}
	if w.Spec.Size == 0 {
		return ctrl.Result{}, client.IgnoreNotFound(r.c.Delete(ctx, child))
	}
	return ctrl.Result{}, client.IgnoreAlreadyExists(r.c.Create(ctx, child))
}

func keeperScenario() explore.Scenario {
	const ns = "kp"
	patch := func(obj client.Object, body string) func(context.Context, client.Client) error {
		return func(ctx context.Context, c client.Client) error {
			return c.Patch(ctx, obj, client.RawPatch(types.MergePatchType, []byte(body)))
		}
	}
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "keeper", For: &testv1.Widget{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return childKeeper{c: c} }}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "w"}, Spec: testv1.WidgetSpec{Size: 1}},
			&testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "cfg"}}},
		Actions: []explore.Action{
			{Name: "label-cfg", Run: patch(&testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "cfg"}}, `{"metadata":{"labels":{"off":"1"}}}`)},
			{Name: "shrink", Run: patch(&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "w"}}, `{"spec":{"size":0}}`)},
		},
	}
}

// TestOwnDeleteJudgedByTheSameCreation: the keeper acknowledges, crashes
// before it creates its child, and the restarted process creates it
// (step 2); the user labels cfg and shrinks the Widget; the next
// reconcile reads the shrink and cfg stale, and deletes the child, as
// the shrink asks. The same schedule without the crash creates the child
// at step 1 and deletes it at the same step from fresh reads: the state
// asked for it, no violation. Judged by the creating step (main before
// this), the two creations did not match, and the delete stood. The
// class: a judgement names what it compares by what both schedules have
// (the n-th creation of a name, a chosen step's place without the
// deliveries of writes in flight), not by a step number the faults it
// takes out move.
func TestOwnDeleteJudgedByTheSameCreation(t *testing.T) {
	const replay = "keeper:kp/w@0,0#1 keeper:kp/w@0,0 !label-cfg !shrink keeper:kp/w@0,1"
	res, err := explore.Run(t.Context(), keeperScenario(), explore.Options{Backend: explore.Server(server(t)), Crashes: 1, Replay: replay})
	if err != nil {
		t.Fatal(err)
	}
	if res.Diverged != "" {
		t.Fatalf("replay diverged: %s", res.Diverged)
	}
	if v := res.Violation; v != nil {
		t.Fatalf("a delete the user's shrink asked for, after a stale read of what decides nothing, reported:\n%v", v)
	}
}
