package explore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// finalizerKeeper is a reconciler of Widgets that leaves a finalizer on an
// object being deleted in one of the ways "no stuck finalizer" must not
// report.
type finalizerKeeper struct {
	c    client.Client
	mode keeperMode
}

type keeperMode int

const (
	// touchesNone adds and removes no finalizer.
	touchesNone keeperMode = iota
	// waitsRequeueing keeps its finalizer on a Widget being deleted and
	// asks to be requeued: it waits for something outside.
	waitsRequeueing
	// waitsErring does the same, returning an error.
	waitsErring
	// finalizesChild creates its Gizmo with a finalizer it never removes:
	// no reconciler reconciles Gizmos.
	finalizesChild
	// waitsForDrain removes its finalizer once its Gizmo (owned) reports
	// status.phase Drained, which a controller of Gizmos, not in the
	// scenario, would set; it waits for the Gizmo's update event.
	waitsForDrain
	// deletesForeground deletes its Gizmo (not owned) in the foreground
	// and removes its finalizer once the Gizmo is gone, waiting for its
	// delete event: the garbage collector, which these servers do not
	// run, would remove the Gizmo's foregroundDeletion finalizer.
	deletesForeground
)

func (r *finalizerKeeper) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	child := &testv1.Gizmo{}
	childErr := r.c.Get(ctx, req.NamespacedName, child)
	if client.IgnoreNotFound(childErr) != nil {
		return ctrl.Result{}, childErr
	}
	if r.mode == touchesNone {
		return ctrl.Result{}, nil
	}
	if !w.DeletionTimestamp.IsZero() {
		return r.deleting(ctx, w, child, childErr)
	}
	if r.mode != finalizesChild && controllerutil.AddFinalizer(w, cleanup) {
		if err := r.c.Update(ctx, w); err != nil {
			return ctrl.Result{}, err
		}
	}
	if !apierrors.IsNotFound(childErr) {
		return ctrl.Result{}, nil
	}
	child = &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, Name: w.Name}}
	switch r.mode {
	case finalizesChild:
		child.Finalizers = []string{"example.com/child"}
	case waitsForDrain:
		if err := controllerutil.SetControllerReference(w, child, r.c.Scheme()); err != nil {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, client.IgnoreAlreadyExists(r.c.Create(ctx, child))
}

func (r *finalizerKeeper) deleting(ctx context.Context, w *testv1.Widget, child *testv1.Gizmo, childErr error) (ctrl.Result, error) {
	switch r.mode {
	case waitsRequeueing:
		return ctrl.Result{RequeueAfter: time.Minute}, nil
	case waitsErring:
		return ctrl.Result{}, errors.New("waiting for the external system to let go")
	case waitsForDrain:
		if childErr == nil && child.Status.Phase != "Drained" {
			return ctrl.Result{}, nil // the Gizmo's update event brings us back
		}
	case deletesForeground:
		if childErr == nil {
			if child.DeletionTimestamp.IsZero() {
				return ctrl.Result{}, r.c.Delete(ctx, child, client.PropagationPolicy(metav1.DeletePropagationForeground))
			}
			return ctrl.Result{}, nil // its delete event brings us back
		}
	default:
		return ctrl.Result{}, nil
	}
	controllerutil.RemoveFinalizer(w, cleanup)
	return ctrl.Result{}, client.IgnoreNotFound(r.c.Update(ctx, w))
}

// protect is a user's finalizer, added to the Widget by an action.
var protect = explore.Action{Name: "protect", Run: func(ctx context.Context, c client.Client) error {
	w := &testv1.Widget{}
	if err := c.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "w"}, w); err != nil {
		return client.IgnoreNotFound(err)
	}
	if !controllerutil.AddFinalizer(w, "example.com/protect") {
		return nil
	}
	return c.Update(ctx, w)
}}

// "no stuck finalizer" stays silent on an object being deleted whose
// finalizer nothing in the schedule will remove when no reconciler of its
// kind added it (the scenario's Objects, a user action), when its
// reconciler waits (requeueing: nothing; erring: "no error loop"), when no
// reconciler reconciles its kind, when it still has a dependent (a
// controller of the dependent, kube-controller-manager or the garbage
// collector, none of them run here, may be what it waits for), and while
// an object waits on the garbage collector's foregroundDeletion.
func TestStuckFinalizerSilence(t *testing.T) {
	for _, tc := range []struct {
		name    string
		mode    keeperMode
		objects []client.Object
		actions []explore.Action
		// want is the invariant the search must find, "" for none.
		want string
	}{
		{"the scenario's objects' finalizer", touchesNone,
			[]client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w", Finalizers: []string{"example.com/user"}}}},
			[]explore.Action{deleteWidget}, ""},
		{"a user action's finalizer", touchesNone, nil, []explore.Action{protect, deleteWidget}, ""},
		{"waits, requeueing", waitsRequeueing, nil, []explore.Action{deleteWidget}, ""},
		{"waits, erring", waitsErring, nil, []explore.Action{deleteWidget}, explore.InvariantErrorLoop},
		{"a kind no reconciler reconciles", finalizesChild, nil, []explore.Action{deleteGizmo}, ""},
		{"a dependent left", waitsForDrain, nil, []explore.Action{deleteWidget}, ""},
		{"the garbage collector's foregroundDeletion", deletesForeground, nil, []explore.Action{deleteWidget}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := explore.Scenario{
				Reconcilers: []explore.Reconciler{{Name: "keeper", For: &testv1.Widget{}, Owns: []client.Object{&testv1.Gizmo{}},
					New: func(c client.Client, _ client.Reader) reconcile.Reconciler {
						return &finalizerKeeper{c: c, mode: tc.mode}
					}}},
				Objects: tc.objects,
				Actions: tc.actions,
			}
			if s.Objects == nil {
				s.Objects = []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}}
			}
			o := serverOptions(t)
			o.StaleReads = -1
			o.Disable = []string{explore.InvariantObservedGenerationStuck}
			res, steps, err := explore.RunSteps(t.Context(), s, o)
			if err != nil {
				t.Fatal(err)
			}
			v := res.Violation
			switch {
			case tc.want == "" && (v != nil || !res.Exhausted):
				t.Fatalf("want every schedule run without violation, got exhausted %t:\n%v", res.Exhausted, v)
			case tc.want != "" && (v == nil || v.Invariant != tc.want || v.Broke(explore.InvariantStuckFinalizer)):
				t.Fatalf("want %s alone, got:\n%v", tc.want, v)
			}
			if !leftTerminating(steps) {
				t.Fatalf("no schedule of %d ended with an object deleted and kept: the test shows nothing", len(steps))
			}
			t.Logf("%d schedules", res.Schedules)
		})
	}
}

// leftTerminating reports a schedule whose user action deleted an object
// that no later write made gone.
func leftTerminating(schedules [][]explore.Step) bool {
	for _, steps := range schedules {
		deleted := map[string]bool{}
		for _, st := range steps {
			for _, w := range st.Writes {
				switch {
				case w.Verb == "delete" && w.Answer == "ok" && !w.Gone:
					deleted[w.Object] = true
				case w.Gone:
					delete(deleted, w.Object)
				}
			}
		}
		if len(deleted) > 0 {
			return true
		}
	}
	return false
}
