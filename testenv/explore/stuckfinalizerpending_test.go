package explore_test

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

const gizmoExternal = "example.com/gizmo-external"

// labelParent keeps its finalizer on a Widget being deleted until its
// Gizmo, linked by name and a label (no owner reference), is gone: it
// deletes the Gizmo and waits for its delete event.
type labelParent struct{ c client.Client }

func (r *labelParent) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	g := &testv1.Gizmo{}
	gErr := r.c.Get(ctx, req.NamespacedName, g)
	if client.IgnoreNotFound(gErr) != nil {
		return ctrl.Result{}, gErr
	}
	if !w.DeletionTimestamp.IsZero() {
		switch {
		case gErr == nil && g.DeletionTimestamp.IsZero():
			return ctrl.Result{}, client.IgnoreNotFound(r.c.Delete(ctx, g))
		case gErr == nil:
			return ctrl.Result{}, nil // the Gizmo's delete event brings us back
		}
		controllerutil.RemoveFinalizer(w, cleanup)
		return ctrl.Result{}, client.IgnoreNotFound(r.c.Update(ctx, w))
	}
	if controllerutil.AddFinalizer(w, cleanup) {
		return ctrl.Result{}, r.c.Update(ctx, w)
	}
	if gErr != nil {
		g = &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, Name: w.Name, Labels: map[string]string{"parent": w.Name}}}
		return ctrl.Result{}, client.IgnoreAlreadyExists(r.c.Create(ctx, g))
	}
	return ctrl.Result{}, nil
}

// externalChild puts its finalizer on a Gizmo and, once the Gizmo is being
// deleted, waits (requeueing) for an external system to let go.
type externalChild struct{ c client.Client }

func (r *externalChild) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	g := &testv1.Gizmo{}
	if err := r.c.Get(ctx, req.NamespacedName, g); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !g.DeletionTimestamp.IsZero() {
		return ctrl.Result{RequeueAfter: time.Minute}, nil // external release pending
	}
	if controllerutil.AddFinalizer(g, gizmoExternal) {
		return ctrl.Result{}, r.c.Update(ctx, g)
	}
	return ctrl.Result{}, nil
}

// "no stuck finalizer" stays silent on a Widget whose finalizer waits for
// its Gizmo (linked by label, not owner reference) to go while the
// Gizmo's own reconciler still waits, requeueing, on the Gizmo's
// finalizer: a deletion still in progress.
func TestStuckFinalizerSilentWhileAChildIsStillBeingFinalized(t *testing.T) {
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{
			{Name: "parent", For: &testv1.Widget{}, New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return &labelParent{c: c} }},
			{Name: "child", For: &testv1.Gizmo{}, New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return &externalChild{c: c} }},
		},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Actions: []explore.Action{deleteWidget},
	}
	o := serverOptions(t)
	o.StaleReads = -1
	o.Depth = 6
	o.Disable = []string{explore.InvariantObservedGenerationStuck}
	res, steps, err := explore.RunSteps(t.Context(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil {
		t.Fatalf("false alarm (%d schedules):\n%v", res.Schedules, res.Violation)
	}
	if !leftTerminating(steps) {
		t.Fatalf("no schedule of %d ended with an object deleted and kept: the test shows nothing", len(steps))
	}
	t.Logf("%d schedules, exhausted %t", res.Schedules, res.Exhausted)
}

const inUse = "example.com/in-use"

// inUseGuard is deletion protection (pvc-protection, Crossplane's in-use):
// it keeps its finalizer on a Widget being deleted while a Gizmo labelled
// uses=<the Widget> exists, and returns done, waiting for the Gizmos'
// delete events; the Widget goes when the user deletes its users.
type inUseGuard struct{ c client.Client }

func (r *inUseGuard) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if w.DeletionTimestamp.IsZero() {
		if controllerutil.AddFinalizer(w, inUse) {
			return ctrl.Result{}, r.c.Update(ctx, w)
		}
		return ctrl.Result{}, nil
	}
	users := &testv1.GizmoList{}
	if err := r.c.List(ctx, users, client.InNamespace(w.Namespace), client.MatchingLabels{"uses": w.Name}); err != nil {
		return ctrl.Result{}, err
	}
	if len(users.Items) > 0 {
		return ctrl.Result{}, nil // in use: the users' delete events bring us back
	}
	controllerutil.RemoveFinalizer(w, inUse)
	return ctrl.Result{}, client.IgnoreNotFound(r.c.Update(ctx, w))
}

var userGizmo = &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "user", Labels: map[string]string{"uses": "w"}}}

// createUser is the user's kubectl create of a Gizmo that uses the Widget.
var createUser = explore.Action{Name: "create-user", Run: func(ctx context.Context, c client.Client) error {
	return client.IgnoreAlreadyExists(c.Create(ctx, userGizmo.DeepCopy()))
}}

// "no stuck finalizer" stays silent on deletion protection: a Widget kept
// by its "in use" finalizer while objects the user made (the scenario's
// Objects, an action's create) still use it, which the steady reconcile
// read; the Widget goes when the user deletes them.
func TestStuckFinalizerSilentOnDeletionProtection(t *testing.T) {
	widget := &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}
	for _, tc := range []struct {
		name    string
		objects []client.Object
		actions []explore.Action
	}{
		{"a user of the scenario's Objects", []client.Object{widget, userGizmo}, []explore.Action{deleteWidget}},
		{"a user an action created", []client.Object{widget}, []explore.Action{createUser, deleteWidget}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := explore.Scenario{
				Reconcilers: []explore.Reconciler{{Name: "guard", For: &testv1.Widget{},
					New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return &inUseGuard{c: c} }}},
				Objects: tc.objects,
				Actions: tc.actions,
			}
			o := serverOptions(t)
			o.StaleReads = -1
			o.Disable = []string{explore.InvariantObservedGenerationStuck}
			res, steps, err := explore.RunSteps(t.Context(), s, o)
			if err != nil {
				t.Fatal(err)
			}
			if res.Violation != nil || !res.Exhausted {
				t.Fatalf("want every schedule run without violation, got exhausted %t (%d schedules):\n%v", res.Exhausted, res.Schedules, res.Violation)
			}
			if !leftTerminating(steps) {
				t.Fatalf("no schedule of %d ended with an object deleted and kept: the test shows nothing", len(steps))
			}
			t.Logf("%d schedules", res.Schedules)
		})
	}
}
