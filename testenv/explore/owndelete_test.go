package explore_test

import (
	"context"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// childCleaner keeps a finalizer on each Widget and one Gizmo of its name
// (owner reference to the Widget; without owner, with unowned), and reads
// its settings (Gizmo ns/settings) through the cache in every reconcile.
// When the Widget is being deleted it deletes the Gizmo, then removes the
// finalizer: the cleanup the user asked for by deleting the Widget, whatever
// the settings read saw.
type childCleaner struct {
	c       client.Client
	api     client.Reader
	unowned bool
}

func (r *childCleaner) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	settings := &testv1.Gizmo{}
	if err := r.c.Get(ctx, client.ObjectKey{Namespace: req.Namespace, Name: "settings"}, settings); err != nil {
		return ctrl.Result{}, err
	}
	w := &testv1.Widget{}
	if err := r.api.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	g := &testv1.Gizmo{}
	err := r.c.Get(ctx, req.NamespacedName, g)
	if err != nil && !apierrors.IsNotFound(err) {
		return ctrl.Result{}, err
	}
	if !w.DeletionTimestamp.IsZero() {
		if err == nil {
			uid := g.UID
			if err := r.c.Delete(ctx, g, client.Preconditions{UID: &uid}); client.IgnoreNotFound(err) != nil {
				return ctrl.Result{}, err
			}
		}
		if controllerutil.RemoveFinalizer(w, cleanup) {
			return ctrl.Result{}, client.IgnoreNotFound(r.c.Update(ctx, w))
		}
		return ctrl.Result{}, nil
	}
	if controllerutil.AddFinalizer(w, cleanup) {
		if err := r.c.Update(ctx, w); err != nil {
			return ctrl.Result{}, err
		}
	}
	if err == nil {
		return ctrl.Result{}, nil
	}
	g = &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, Name: w.Name}}
	if !r.unowned {
		if err := controllerutil.SetControllerReference(w, g, r.c.Scheme()); err != nil {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, client.IgnoreAlreadyExists(r.c.Create(ctx, g))
}

// tuneSettings changes the cleaner's settings: a second version of them,
// which a later reconcile may read stale.
var tuneSettings = explore.Action{Name: "tune", Run: func(ctx context.Context, c client.Client) error {
	g := &testv1.Gizmo{}
	if err := c.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "settings"}, g); err != nil {
		return err
	}
	if g.Labels == nil {
		g.Labels = map[string]string{}
	}
	g.Labels["tuned"] = "yes"
	return c.Update(ctx, g)
}}

// deleteWidget is kubectl delete of the Widget.
var deleteWidget = explore.Action{Name: "delete-widget", Run: func(ctx context.Context, c client.Client) error {
	return client.IgnoreNotFound(c.Delete(ctx, &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}))
}}

// The false alarm: the user deletes the Widget, and the cleanup of
// its finalizer deletes the Gizmo the first reconcile created, in a step
// that read the settings stale. That deletion is the one the user asked
// for, not a delete of own creation, with or without an owner reference
// to the deleted Widget (without one, the step reconciles the Widget the
// user deleted).
func TestOwnDeleteOfAChildTheUserDeletedTheParentOf(t *testing.T) {
	for _, unowned := range []bool{false, true} {
		s := explore.Scenario{
			Reconcilers: []explore.Reconciler{{Name: "cleaner", For: &testv1.Widget{}, Owns: []client.Object{&testv1.Gizmo{}},
				New: func(c client.Client, api client.Reader) reconcile.Reconciler {
					return &childCleaner{c: c, api: api, unowned: unowned}
				}}},
			Objects: []client.Object{
				&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}},
				&testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "settings"}},
			},
			Actions: []explore.Action{tuneSettings, deleteWidget},
		}
		o := serverOptions(t)
		o.Depth, o.Versions, o.StaleReads = 4, 2, 1
		res, steps, err := explore.RunSteps(t.Context(), s, o)
		if err != nil {
			t.Fatal(err)
		}
		if res.Violation != nil || !res.Exhausted {
			t.Fatalf("unowned %t: want every schedule run without violation, got exhausted %t:\n%v", unowned, res.Exhausted, res.Violation)
		}
		// The schedule of the issue was run: a stale read of the settings
		// in the step that deleted the Gizmo after the user's delete.
		if !ranCleanupAfterStaleRead(steps) {
			t.Fatalf("unowned %t: no schedule deleted the Gizmo after a stale read of the settings (%d schedules)", unowned, len(steps))
		}
		t.Logf("unowned %t: %d schedules (%d pruned) in %s", unowned, res.Schedules, res.Pruned, res.Elapsed)
	}
}

// ranCleanupAfterStaleRead reports a schedule where a step after the
// user's delete read the settings stale and deleted the Gizmo ns/w.
func ranCleanupAfterStaleRead(schedules [][]explore.Step) bool {
	for _, steps := range schedules {
		deleted := false
		for _, st := range steps {
			if st.Reconciler == "action delete-widget" {
				deleted = true
			}
			if !deleted || st.Reconciler != "cleaner" {
				continue
			}
			stale, gone := false, false
			for _, rd := range st.Reads {
				stale = stale || rd.Object == "Gizmo ns/settings" && rd.Version < rd.Newest
			}
			for _, w := range st.Writes {
				gone = gone || strings.HasPrefix(w.Verb, "delete") && w.Object == "Gizmo ns/w" && w.Answer == "ok"
			}
			if stale && gone {
				return true
			}
		}
	}
	return false
}

// The user's delete of one Widget asks for the cleanup of its own children
// only: the stale-parent bug (TestBuiltinInvariantsFindEachBug) on another
// Widget, after that delete, is found as before.
func TestOwnDeleteFoundBesideAUserDeletedParent(t *testing.T) {
	s := gizmoScenario(gizmoReconciler{staleParent: true}, explore.Action{Name: "delete-other", Run: func(ctx context.Context, c client.Client) error {
		return client.IgnoreNotFound(c.Delete(ctx, &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "other"}}))
	}})
	s.Objects = append(s.Objects, &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "other"}})
	o := serverOptions(t)
	o.Replay = "widget:ns/other@0,0 !delete-other widget:ns/w@0,0 widget:ns/w@1,0"
	res, err := explore.Run(t.Context(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || v.Invariant != explore.InvariantOwnDelete || !strings.Contains(v.Message, "Gizmo ns/w (uid") ||
		!strings.Contains(v.Message, "after a stale read of Widget ns/w") {
		t.Fatalf("want %s of Gizmo ns/w after a stale read of Widget ns/w, got:\n%v", explore.InvariantOwnDelete, v)
	}
	t.Logf("%s", v)
}
