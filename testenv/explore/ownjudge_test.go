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

// finisher creates a Gizmo for its Widget (phase "created"), then marks
// the Widget done and deletes the Gizmo, in one reconcile; a Widget found
// done with its Gizmo still there has the Gizmo deleted. Its reads go to
// the API server. A crash between the mark and the delete leaves the
// delete to the next process, which makes it from fresh reads: what the
// state asks for, as the process that crashed would have.
type finisher struct{ c, api client.Client }

func (r *finisher) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.api.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	g := &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, Name: w.Name}}
	base := w.DeepCopy()
	switch w.Status.Phase {
	case "":
		if err := controllerutil.SetControllerReference(w, g, r.c.Scheme()); err != nil {
			return ctrl.Result{}, err
		}
		if err := r.c.Create(ctx, g); client.IgnoreAlreadyExists(err) != nil {
			return ctrl.Result{}, err
		}
		w.Status.Phase = "created"
		return ctrl.Result{}, r.c.Status().Patch(ctx, w, client.MergeFrom(base))
	case "created":
		w.Status.Phase = "done"
		if err := r.c.Status().Patch(ctx, w, client.MergeFrom(base)); err != nil {
			return ctrl.Result{}, err
		}
	}
	if err := r.api.Get(ctx, client.ObjectKeyFromObject(g), g); apierrors.IsNotFound(err) {
		return ctrl.Result{}, nil
	} else if err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, client.IgnoreNotFound(r.c.Delete(ctx, g))
}

// orphanSweeper creates a Gizmo of a generated name for its Widget, remembers
// the name in memory, and records it in the Widget's status; every
// reconcile deletes the Gizmos of the Widget it does not remember. A
// process that crashed after the create, before the record, forgets the
// Gizmo: the next one creates another and deletes the first, which no
// process that did not crash deletes.
type orphanSweeper struct {
	c, api client.Client
	mine   map[string]bool
}

func (r *orphanSweeper) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.api.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if w.Status.Plan == nil {
		g := &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, GenerateName: w.Name + "-"}}
		if err := controllerutil.SetControllerReference(w, g, r.c.Scheme()); err != nil {
			return ctrl.Result{}, err
		}
		if err := r.c.Create(ctx, g); err != nil {
			return ctrl.Result{}, err
		}
		r.mine[g.Name] = true
		base := w.DeepCopy()
		w.Status.Plan = &testv1.WidgetPlan{ID: g.Name}
		if err := r.c.Status().Patch(ctx, w, client.MergeFrom(base)); err != nil {
			return ctrl.Result{}, err
		}
	}
	var l testv1.GizmoList
	if err := r.api.List(ctx, &l, client.InNamespace(w.Namespace)); err != nil {
		return ctrl.Result{}, err
	}
	for i := range l.Items {
		if g := &l.Items[i]; !r.mine[g.Name] && metav1.IsControlledBy(g, w) {
			if err := r.c.Delete(ctx, g); client.IgnoreNotFound(err) != nil {
				return ctrl.Result{}, err
			}
		}
	}
	return ctrl.Result{}, nil
}

func judgeScenario(newRec func(c, api client.Client) reconcile.Reconciler) explore.Scenario {
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "widget", For: &testv1.Widget{}, Owns: []client.Object{&testv1.Gizmo{}},
			New: func(c client.Client, api client.Reader) reconcile.Reconciler { return newRec(c, api.(client.Client)) }}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
	}
}

// TestOwnDeleteTheStateAskedFor: a delete of an own creation after a
// crash, from fresh reads, that the same schedule without the crash
// makes too, at the same step or earlier, is what the state asked for:
// no violation (finisher, crashing between its mark and its delete, with
// a restart or a leader change). One the schedule without the crash never
// makes is the crash's doing, and is reported (orphanSweeper).
func TestOwnDeleteTheStateAskedFor(t *testing.T) {
	o := serverOptions(t)
	o.Crashes, o.LeaderChange = 1, true
	res, err := explore.Run(t.Context(), judgeScenario(func(c, api client.Client) reconcile.Reconciler { return &finisher{c: c, api: api} }), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted {
		t.Fatalf("finisher: want no violation, exhausted; got %d schedules (exhausted %t):\n%v", res.Schedules, res.Exhausted, res.Violation)
	}
	res, err = explore.Run(t.Context(), judgeScenario(func(c, api client.Client) reconcile.Reconciler {
		return &orphanSweeper{c: c, api: api, mine: map[string]bool{}}
	}), o)
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || !v.Broke(explore.InvariantOwnDelete) || !strings.Contains(v.String(), "crash(es) since") {
		t.Fatalf("orphanSweeper: want its own Gizmo deleted after a crash, got:\n%v", v)
	}
}
