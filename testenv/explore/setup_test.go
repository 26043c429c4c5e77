package explore_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// SetupWithManager is the operator's own wiring: the Widget with
// GenerationChangedPredicate, and the Gizmos it owns.
func (r *gizmoReconciler) SetupWithManager(mgr ctrl.Manager) error {
	r.c, r.api = mgr.GetClient(), mgr.GetAPIReader()
	return ctrl.NewControllerManagedBy(mgr).
		For(&testv1.Widget{}, builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		Owns(&testv1.Gizmo{}).
		Complete(r)
}

func setupScenario(rec gizmoReconciler, actions ...explore.Action) explore.Scenario {
	s := gizmoScenario(rec, actions...)
	s.Reconcilers = nil
	s.Setup = func(mgr ctrl.Manager) error {
		r := rec
		return r.SetupWithManager(mgr)
	}
	return s
}

// With Scenario.Setup the explorer runs the operator's SetupWithManager:
// the controller it builds is the reconciler ("widget", as the builder
// names it), its Owns handler queues the Widget when its Gizmo is written,
// and its predicate drops the Widget's status-only writes.
func TestSetupWithManager(t *testing.T) {
	res, err := explore.Run(t.Context(), setupScenario(gizmoReconciler{}, replaceGizmo, deleteGizmo, resize), serverOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil {
		t.Fatalf("correct reconciler: want no violation, got:\n%v", res.Violation)
	}

	// The second reconcile comes from the Gizmo's create, through Owns.
	res, err = explore.Run(t.Context(), setupScenario(gizmoReconciler{staleParent: true}), serverOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || v.Invariant != explore.InvariantOwnDelete || !strings.HasPrefix(v.Seed, "widget:ns/w@") {
		t.Fatalf("stale parent through Setup: want the own delete, got:\n%v", v)
	}
	o := serverOptions(t)
	o.Replay = v.Seed
	if again, err := explore.Run(t.Context(), setupScenario(gizmoReconciler{staleParent: true}), o); err != nil || again.Violation == nil || again.Diverged != "" {
		t.Fatalf("replay of %q: %v, %v, diverged %q", v.Seed, err, again.Violation, again.Diverged)
	}

	// The blind status write is lost only in schedules the predicate rules out.
	res, err = explore.Run(t.Context(), setupScenario(gizmoReconciler{blind: true}), serverOptions(t))
	if err != nil || res.Violation != nil || !res.Exhausted {
		t.Fatalf("blind writer behind GenerationChangedPredicate: want no violation, every schedule run; got %v, %+v", err, res)
	}
}

func TestSetupErrors(t *testing.T) {
	for name, tc := range map[string]struct {
		setup func(ctrl.Manager) error
		want  string
	}{
		"nothing built": {func(ctrl.Manager) error { return nil }, "built no controller"},
		"setup fails":   {func(ctrl.Manager) error { return errSetup }, "Scenario.Setup: no CRD"},
		"manager lacks": {func(mgr ctrl.Manager) error { mgr.GetWebhookServer(); return nil }, "does not have"},
		// karpenter's Register without the options its main puts in the
		// context: the operator's own panic, not the manager's.
		"operator panics": {func(ctrl.Manager) error { panic("options doesn't exist in context") },
			"Scenario.Setup panicked: options doesn't exist in context (in the operator's code"},
		// kueue's multikueue adds its garbage collector so: named, not dropped.
		"runnable": {func(mgr ctrl.Manager) error {
			return mgr.Add(manager.RunnableFunc(func(context.Context) error { return nil }))
		}, "added a runnable that is not a controller or a cache with mgr.Add (manager.RunnableFunc github.com/statuspatch/statuspatch/testenv/explore_test.TestSetupErrors.func"},
	} {
		s := gizmoScenario(gizmoReconciler{})
		s.Reconcilers, s.Setup = nil, tc.setup
		_, err := explore.Run(t.Context(), s, serverOptions(t))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", name, err, tc.want)
		}
	}
}

var errSetup = errorString("no CRD")

type errorString string

func (e errorString) Error() string { return string(e) }

var _ client.Object = &testv1.Widget{}

// Watches with a map function, Named and WithEventFilter: the explorer
// calls the operator's map function with the written Gizmo, and the event
// filter sees every event. The Gizmo names its Widget in a label, not an
// owner reference, so only the map function can route it.
func TestSetupWatchesMapFunc(t *testing.T) {
	var mapped, filtered int
	s := explore.Scenario{
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Actions: []explore.Action{{Name: "add-gizmo", Run: func(ctx context.Context, c client.Client) error {
			return c.Create(ctx, &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "g", Labels: map[string]string{"widget": "w"}}})
		}}},
		Setup: func(mgr ctrl.Manager) error {
			c := mgr.GetClient()
			r := reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
				var l testv1.GizmoList
				if err := c.List(ctx, &l, client.InNamespace(req.Namespace), client.MatchingLabels{"widget": req.Name}); err != nil {
					return reconcile.Result{}, err
				}
				w := &testv1.Widget{}
				if err := c.Get(ctx, req.NamespacedName, w); err != nil {
					return reconcile.Result{}, client.IgnoreNotFound(err)
				}
				base := w.DeepCopy()
				w.Status.Phase = strconv.Itoa(len(l.Items))
				return reconcile.Result{}, c.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
			})
			return ctrl.NewControllerManagedBy(mgr).Named("counter").For(&testv1.Widget{}).
				Watches(&testv1.Gizmo{}, handler.EnqueueRequestsFromMapFunc(func(_ context.Context, o client.Object) []reconcile.Request {
					mapped++
					return []reconcile.Request{{NamespacedName: types.NamespacedName{Namespace: o.GetNamespace(), Name: o.GetLabels()["widget"]}}}
				})).
				WithEventFilter(predicate.NewPredicateFuncs(func(client.Object) bool { filtered++; return true })).
				Complete(r)
		},
		Invariant: func(ctx context.Context, rd client.Reader) error {
			w := &testv1.Widget{}
			if err := rd.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "w"}, w); err != nil {
				return err
			}
			if w.Status.Phase != "1" {
				return fmt.Errorf("phase %q, want 1 Gizmo counted", w.Status.Phase)
			}
			return nil
		},
	}
	o := serverOptions(t)
	o.Replay = "!add-gizmo counter:ns/w@0"
	res, err := explore.Run(t.Context(), s, o)
	if err != nil || res.Violation != nil {
		t.Fatalf("got %v, %v", err, res.Violation)
	}
	if mapped == 0 || filtered == 0 {
		t.Fatalf("the map function ran %d times, the event filter %d", mapped, filtered)
	}
}

// A cached List with a field selector is served from the index the
// operator's setup registers (IndexField), as a manager's cache serves it;
// the API server itself serves no such field on a custom resource.
func TestSetupFieldIndex(t *testing.T) {
	const field = "widget"
	s := explore.Scenario{
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Actions: []explore.Action{{Name: "add-gizmos", Run: func(ctx context.Context, c client.Client) error {
			for _, g := range []struct{ name, widget string }{{"g", "w"}, {"other", "x"}} {
				if err := c.Create(ctx, &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: g.name, Labels: map[string]string{"widget": g.widget}}}); err != nil {
					return err
				}
			}
			return nil
		}}},
		Setup: func(mgr ctrl.Manager) error {
			if err := mgr.GetFieldIndexer().IndexField(context.Background(), &testv1.Gizmo{}, field, func(o client.Object) []string {
				return []string{o.GetLabels()["widget"]}
			}); err != nil {
				return err
			}
			c := mgr.GetClient()
			r := reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
				var l testv1.GizmoList
				if err := c.List(ctx, &l, client.InNamespace(req.Namespace), client.MatchingFields{field: req.Name}); err != nil {
					return reconcile.Result{}, err
				}
				w := &testv1.Widget{}
				if err := c.Get(ctx, req.NamespacedName, w); err != nil {
					return reconcile.Result{}, client.IgnoreNotFound(err)
				}
				base := w.DeepCopy()
				w.Status.Phase = strconv.Itoa(len(l.Items))
				return reconcile.Result{}, c.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
			})
			return ctrl.NewControllerManagedBy(mgr).Named("counter").For(&testv1.Widget{}).Complete(r)
		},
		Invariant: func(ctx context.Context, rd client.Reader) error {
			w := &testv1.Widget{}
			if err := rd.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "w"}, w); err != nil {
				return err
			}
			if w.Status.Phase != "1" {
				return fmt.Errorf("phase %q, want the 1 Gizmo of Widget w counted", w.Status.Phase)
			}
			return nil
		},
	}
	o := serverOptions(t)
	o.Replay = "!add-gizmos counter:ns/w@0"
	res, err := explore.Run(t.Context(), s, o)
	if err != nil || res.Violation != nil {
		t.Fatalf("got %v, %v", err, res.Violation)
	}
}
