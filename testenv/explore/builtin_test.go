package explore_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

var (
	envOnce sync.Once
	shared  *testServer
	envErr  error
	// sharedStop stops shared, from TestMain, which removes its etcd's
	// data and kubeconfig directories.
	sharedStop func()
)

// server is one embedded API server with the test kinds, shared by the
// package's tests (each Run cleans up what it wrote).
func server(t *testing.T) *testServer {
	t.Helper()
	envOnce.Do(func() {
		s := runtime.NewScheme()
		if err := testv1.AddToScheme(s); err != nil {
			envErr = err
			return
		}
		if shared, envErr = startServer("embedded", s); envErr == nil {
			sharedStop = shared.stop
		}
	})
	if envErr != nil {
		t.Fatalf("API server: %v", envErr)
	}
	return shared
}

// gizmoReconciler gives each Widget a Gizmo of its name, records the
// Gizmo's UID in status.plan.id and deletes a Gizmo of that name with
// another UID (one replaced behind its back), as the recreate pattern of
// docs/explore.md does. Each flag is one bug.
type gizmoReconciler struct {
	c   client.Client
	api client.Reader
	// staleParent reads the Widget from the cache (the correct one reads
	// it through the API reader), so it can miss its own record.
	staleParent bool
	// trustRecord never checks a recorded Gizmo still exists.
	trustRecord bool
	// errorLoop returns an error after every reconcile.
	errorLoop bool
	// noObservedGeneration never sets status.observedGeneration.
	noObservedGeneration bool
	// blind keeps no gizmo: it adds "one", then "two" to status.items,
	// deciding from the cache, and writes status without the optimistic
	// lock.
	blind bool
	// apply creates the Gizmo by server-side apply, not create.
	apply bool
	// adopt takes a Gizmo it has no record of as its own (deleting only
	// one whose UID differs from a record): with staleParent, the bug needs
	// a Gizmo replaced behind its back first.
	adopt bool
}

func (r *gizmoReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	reader := r.api
	if r.staleParent || r.blind {
		reader = r.c
	}
	if err := reader.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	recorded := ""
	if w.Status.Plan != nil {
		recorded = w.Status.Plan.ID
	}
	if !r.blind && (!r.trustRecord || recorded == "") {
		g := &testv1.Gizmo{}
		err := r.c.Get(ctx, req.NamespacedName, g)
		switch {
		case apierrors.IsNotFound(err):
			g = &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, Name: w.Name}}
			if err := controllerutil.SetControllerReference(w, g, r.c.Scheme()); err != nil {
				return ctrl.Result{}, err
			}
			if err := r.create(ctx, g); err != nil {
				return ctrl.Result{}, err
			}
			recorded = string(g.UID)
		case err != nil:
			return ctrl.Result{}, err
		case r.adopt && recorded == "":
			recorded = string(g.UID)
		case string(g.UID) != recorded:
			// Replaced behind our back: delete it (that UID only), the
			// next reconcile creates ours.
			uid := g.UID
			if err := r.c.Delete(ctx, g, client.Preconditions{UID: &uid}); client.IgnoreNotFound(err) != nil {
				return ctrl.Result{}, err
			}
			return ctrl.Result{RequeueAfter: time.Second}, nil
		}
	}
	base := w.DeepCopy()
	w.Status.Plan = &testv1.WidgetPlan{ID: recorded}
	if !r.noObservedGeneration {
		w.Status.ObservedGeneration = w.Generation
	}
	if r.blind {
		switch len(w.Status.Items) {
		case 0:
			w.Status.Items = []string{"one"}
		case 1:
			w.Status.Items = append(w.Status.Items, "two")
		}
	}
	patch := client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})
	if r.blind {
		patch = client.MergeFrom(base)
	}
	if err := r.c.Status().Patch(ctx, w, patch); err != nil {
		return ctrl.Result{}, err
	}
	if r.errorLoop {
		return ctrl.Result{}, errors.New("waiting for the gizmo to be ready")
	}
	return ctrl.Result{}, nil
}

// create creates g, by server-side apply with apply (the answer sets its
// UID, as a create's does).
func (r *gizmoReconciler) create(ctx context.Context, g *testv1.Gizmo) error {
	if !r.apply {
		return r.c.Create(ctx, g)
	}
	g.APIVersion, g.Kind = testv1.GroupVersion.String(), "Gizmo"
	data, err := json.Marshal(g)
	if err != nil {
		return err
	}
	return r.c.Patch(ctx, g, client.RawPatch(types.ApplyPatchType, data), client.FieldOwner("widget"), client.ForceOwnership)
}

func gizmoScenario(rec gizmoReconciler, actions ...explore.Action) explore.Scenario {
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "widget", For: &testv1.Widget{}, Owns: []client.Object{&testv1.Gizmo{}},
			New: func(c client.Client, api client.Reader) reconcile.Reconciler {
				r := rec
				r.c, r.api = c, api
				return &r
			}}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Actions: actions,
		Records: []explore.Record{{Of: &testv1.Widget{}, Field: "status.plan.id", Kind: &testv1.Gizmo{}}},
	}
}

// replaceGizmo is kubectl replace --force: the Gizmo deleted and created
// again, same owner reference, new UID.
var replaceGizmo = explore.Action{Name: "replace-gizmo", Run: func(ctx context.Context, c client.Client) error {
	g := &testv1.Gizmo{}
	if err := c.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "w"}, g); err != nil {
		return client.IgnoreNotFound(err)
	}
	if err := c.Delete(ctx, g); err != nil {
		return err
	}
	g.ResourceVersion, g.UID = "", ""
	return c.Create(ctx, g)
}}

// resize changes the Widget's spec: generation 2.
var resize = explore.Action{Name: "resize", Run: func(ctx context.Context, c client.Client) error {
	w := &testv1.Widget{}
	if err := c.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "w"}, w); err != nil {
		return err
	}
	w.Spec.Size++
	return c.Update(ctx, w)
}}

// deleteGizmo is kubectl delete of the Gizmo.
var deleteGizmo = explore.Action{Name: "delete-gizmo", Run: func(ctx context.Context, c client.Client) error {
	return client.IgnoreNotFound(c.Delete(ctx, &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}))
}}

// searchBound is the Budget of a search that must end at a violation or
// with its depth exhausted: a bound, not a deadline.
const searchBound = 10 * time.Minute

func serverOptions(t *testing.T) explore.Options {
	// Budget is a bound, not a deadline: these tests end at their first
	// violation or with depth 3 exhausted, and assert which; a 5 s budget
	// cut searches short under load (TestServerUIDsDoNotDefeatPruning ran 9
	// of its 11 schedules at load 17). StopAtFirst: they assert which
	// violation the search meets first.
	return explore.Options{Backend: explore.Server(server(t)), Depth: 3, Budget: searchBound, StopAtFirst: true}
}

// The correct reconciler, even with the Gizmo replaced or deleted at any
// point, breaks no built-in invariant.
func TestBuiltinInvariantsHoldOnACorrectReconciler(t *testing.T) {
	res, err := explore.Run(t.Context(), gizmoScenario(gizmoReconciler{}, replaceGizmo, deleteGizmo, resize), serverOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil {
		t.Fatalf("a correct reconciler broke an invariant:\n%s", res.Violation)
	}
	t.Logf("%d schedules (%d pruned), exhausted %t, in %s", res.Schedules, res.Pruned, res.Exhausted, res.Elapsed)
}

// Each bug is found by its built-in invariant, which names the offending
// request, and Options.Disable turns that invariant off.
func TestBuiltinInvariantsFindEachBug(t *testing.T) {
	for _, tc := range []struct {
		name      string
		rec       gizmoReconciler
		actions   []explore.Action
		invariant string
		message   string
		// failover lets a standby manager take over once: its cache is
		// not the old leader's, so it may read older versions than the
		// old leader's last read (one cache never goes backwards).
		failover bool
	}{
		{"stale parent deletes its new gizmo", gizmoReconciler{staleParent: true}, nil, explore.InvariantOwnDelete,
			"created by step 1 was deleted by step 2 (widget reconciles Widget ns/w)", false},
		{"stale parent deletes the gizmo it applied", gizmoReconciler{staleParent: true, apply: true}, nil, explore.InvariantOwnDelete,
			"created by step 1 was deleted by step 2 (widget reconciles Widget ns/w), having seen v2 of it, after a stale read of Widget ns/w (v1, newest v2)", false},
		{"error loop", gizmoReconciler{errorLoop: true}, nil, explore.InvariantErrorLoop,
			"returns an error in a steady state, so it is retried forever: waiting for the gizmo", false},
		{"no observedGeneration", gizmoReconciler{noObservedGeneration: true}, []explore.Action{resize}, explore.InvariantObservedGenerationStuck,
			"stuck at 0 below generation 2", false},
		{"blind status write", gizmoReconciler{blind: true}, nil, explore.InvariantLostWrite, "status.items", true},
		{"record of a deleted gizmo", gizmoReconciler{trustRecord: true}, []explore.Action{deleteGizmo}, explore.InvariantRecordLive,
			`status.plan.id records the Gizmo uid`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := gizmoScenario(tc.rec, tc.actions...)
			opts := func() explore.Options {
				o := serverOptions(t)
				if tc.failover {
					o.Crashes, o.LeaderChange = 1, true
				}
				return o
			}
			res, err := explore.Run(t.Context(), s, opts())
			if err != nil {
				t.Fatal(err)
			}
			v := res.Violation
			if v == nil || v.Invariant != tc.invariant || !strings.Contains(v.Message, tc.message) {
				t.Fatalf("want %s (%q), got:\n%v", tc.invariant, tc.message, v)
			}
			t.Logf("found after %d schedules:\n%s", v.Schedules, v)

			o := opts()
			o.Disable = []string{tc.invariant}
			res, err = explore.Run(t.Context(), s, o)
			if err != nil {
				t.Fatal(err)
			}
			if res.Violation != nil && res.Violation.Broke(tc.invariant) {
				t.Fatalf("Disable: %q still reported:\n%s", tc.invariant, res.Violation)
			}
		})
	}
}

func TestDisableUnknownInvariant(t *testing.T) {
	o := serverOptions(t)
	o.Disable = []string{"no such thing"}
	_, err := explore.Run(t.Context(), gizmoScenario(gizmoReconciler{}), o)
	if err == nil || !strings.Contains(err.Error(), `"no such thing" is not a built-in invariant`) {
		t.Fatalf("got %v", err)
	}
}

// With GenerationChangedPredicate (as the operator's SetupWithManager
// passes it), a status-only write queues no reconcile, so the schedule
// that loses the blind status write (a second reconcile queued by the
// first one's status write, then a standby manager's, whose cache lags
// behind the old leader's) is not one production runs.
func TestPredicatesDropStatusOnlyEvents(t *testing.T) {
	s := gizmoScenario(gizmoReconciler{blind: true})
	o := serverOptions(t)
	o.Crashes, o.LeaderChange = 1, true
	res, err := explore.Run(t.Context(), s, o)
	if err != nil || res.Violation == nil || res.Violation.Invariant != explore.InvariantLostWrite {
		t.Fatalf("without predicates: want the lost write, got %v, %v", err, res.Violation)
	}
	s.Reconcilers[0].Predicates = []predicate.Predicate{predicate.GenerationChangedPredicate{}}
	res, err = explore.Run(t.Context(), s, o)
	if err != nil || res.Violation != nil || !res.Exhausted {
		t.Fatalf("with GenerationChangedPredicate: want no violation and every schedule run, got %v, %+v", err, res)
	}
	t.Logf("%d schedules", res.Schedules)
}

// Two Widgets reconciled in either order reach the same state but for the
// UIDs the server gave their Gizmos, which each Widget records: the state
// hash names a UID by its object, so the second order is pruned.
func TestServerUIDsDoNotDefeatPruning(t *testing.T) {
	s := gizmoScenario(gizmoReconciler{})
	s.Objects = append(s.Objects, &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w2"}})
	o := serverOptions(t)
	o.StaleReads, o.Depth = -1, 3
	res, err := explore.Run(t.Context(), s, o)
	if err != nil || res.Violation != nil || !res.Exhausted {
		t.Fatalf("want no violation and every schedule run, got %v, %+v", err, res)
	}
	if res.Pruned == 0 {
		t.Fatalf("no schedule pruned of %d: the recorded UIDs made equal states differ", res.Schedules)
	}
	t.Logf("%d schedules, %d pruned", res.Schedules, res.Pruned)
}

// The missed case: after a kubectl replace --force of the child and
// one stale read of the parent, a reconcile deletes the child the previous
// reconcile created by server-side apply. The reconciler adopts a child it
// has no record of, so without the replacement there is nothing to find;
// "no delete of own creation" finds it from the built-in invariants, the
// creation being an apply.
func TestOwnDeleteOfAnAppliedChildAfterReplace(t *testing.T) {
	rec := gizmoReconciler{staleParent: true, apply: true, adopt: true}
	o := serverOptions(t)
	o.Depth, o.Versions, o.StaleReads = 5, 2, 1
	res, err := explore.Run(t.Context(), gizmoScenario(rec), o)
	if err != nil || res.Violation != nil || !res.Exhausted {
		t.Fatalf("without the replacement: want no violation and every schedule run, got %v, %+v", err, res)
	}
	res, err = explore.Run(t.Context(), gizmoScenario(rec, replaceGizmo), o)
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || v.Invariant != explore.InvariantOwnDelete || !strings.Contains(v.Message, "after a stale read of Widget ns/w") {
		t.Fatalf("want %s after a stale read of the Widget, got:\n%v", explore.InvariantOwnDelete, v)
	}
	t.Logf("found after %d schedules:\n%s", v.Schedules, v)
	var by int
	if _, err := fmt.Sscanf(v.Message[strings.Index(v.Message, "created by step "):], "created by step %d", &by); err != nil {
		t.Fatalf("no creating step in %q: %v", v.Message, err)
	}
	replaced, applied := false, false
	for _, st := range v.Steps {
		replaced = replaced || st.Reconciler == "action replace-gizmo" && st.Index < by
		for _, w := range st.Writes {
			applied = applied || st.Index == by && w.Verb == "apply" && w.Object == "Gizmo ns/w" && w.Answer == "ok"
		}
	}
	if !replaced || !applied {
		t.Fatalf("want the Gizmo replaced before step %d and created by its apply (replaced %t, applied %t):\n%s", by, replaced, applied, v)
	}
}
