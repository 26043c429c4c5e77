package explore_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
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

const cesFinalizer = "example.com/ces-cleanup"

// cesReconciler has the shape of external-secrets' ClusterExternalSecret
// controller: the Widget (a ClusterExternalSecret) provisions a Gizmo of
// its name (an ExternalSecret) for the Gadget "target" (a Namespace), puts
// its own finalizer on the Widget and its mark, a finalizer named after it,
// on the Gadget (as external-secrets puts one on each Namespace), and
// records the Gadget in status.items (status.provisionedNamespaces). When
// the Widget is being deleted it cleans up what it recorded: where the
// Gadget carries its mark it deletes the Gizmo, takes the mark off and
// removes its finalizer; where it carries none, it takes the Gadget for
// never provisioned, deletes what is left there and forgets it (status.items
// emptied); with nothing recorded it has nothing to clean. Reading the
// Gadget through the cache, a stale read in the cleanup misses the mark,
// and the forgetting leaves the Widget's finalizer for good: the next
// reconcile finds nothing recorded. Reading it through the API reader
// (fresh) is the fix.
type cesReconciler struct {
	c   client.Client
	api client.Reader
	// fresh reads the Gadget through the API reader in the cleanup.
	fresh bool
	// unowned creates the Gizmo without an owner reference.
	unowned bool
}

var target = client.ObjectKey{Name: "target"}

func (r *cesReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.api.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	mark := "example.com/ces-" + w.Name
	child := &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, Name: w.Name}}
	if !w.DeletionTimestamp.IsZero() {
		return r.cleanup(ctx, w, mark, child)
	}
	if controllerutil.AddFinalizer(w, cesFinalizer) {
		if err := r.c.Update(ctx, w); err != nil {
			return ctrl.Result{}, err
		}
	}
	ns := &testv1.Gadget{}
	if err := r.c.Get(ctx, target, ns); err != nil {
		return ctrl.Result{}, err
	}
	base := ns.DeepCopy()
	if controllerutil.AddFinalizer(ns, mark) {
		if err := r.c.Patch(ctx, ns, client.MergeFrom(base)); err != nil {
			return ctrl.Result{}, err
		}
	}
	if err := r.c.Get(ctx, client.ObjectKeyFromObject(child), child); client.IgnoreNotFound(err) != nil {
		return ctrl.Result{}, err
	} else if err != nil {
		if !r.unowned {
			if err := controllerutil.SetControllerReference(w, child, r.c.Scheme()); err != nil {
				return ctrl.Result{}, err
			}
		}
		if err := r.c.Create(ctx, child); client.IgnoreAlreadyExists(err) != nil {
			return ctrl.Result{}, err
		}
	}
	if len(w.Status.Items) == 1 && w.Status.Items[0] == target.Name {
		return ctrl.Result{}, nil
	}
	st := w.DeepCopy()
	st.Status.Items = []string{target.Name}
	return ctrl.Result{}, r.c.Status().Patch(ctx, st, client.MergeFromWithOptions(w, client.MergeFromWithOptimisticLock{}))
}

func (r *cesReconciler) cleanup(ctx context.Context, w *testv1.Widget, mark string, child *testv1.Gizmo) (ctrl.Result, error) {
	if !controllerutil.ContainsFinalizer(w, cesFinalizer) || len(w.Status.Items) == 0 {
		return ctrl.Result{}, nil // nothing provisioned, nothing to clean
	}
	var reader client.Reader = r.c
	if r.fresh {
		reader = r.api
	}
	ns := &testv1.Gadget{}
	if err := reader.Get(ctx, target, ns); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.c.Delete(ctx, child); client.IgnoreNotFound(err) != nil {
		return ctrl.Result{}, err
	}
	if !controllerutil.ContainsFinalizer(ns, mark) {
		// Never provisioned there (so it seems): forget it.
		st := w.DeepCopy()
		st.Status.Items = nil
		return ctrl.Result{}, r.c.Status().Patch(ctx, st, client.MergeFromWithOptions(w, client.MergeFromWithOptimisticLock{}))
	}
	base := ns.DeepCopy()
	controllerutil.RemoveFinalizer(ns, mark)
	if err := r.c.Patch(ctx, ns, client.MergeFrom(base)); err != nil {
		return ctrl.Result{}, err
	}
	controllerutil.RemoveFinalizer(w, cesFinalizer)
	return ctrl.Result{}, client.IgnoreNotFound(r.c.Update(ctx, w))
}

func cesScenario(rec cesReconciler) explore.Scenario {
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "ces", For: &testv1.Widget{}, Owns: []client.Object{&testv1.Gizmo{}},
			New: func(c client.Client, api client.Reader) reconcile.Reconciler {
				r := rec
				r.c, r.api = c, api
				return &r
			}}},
		Objects: []client.Object{
			&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}},
			&testv1.Gadget{ObjectMeta: metav1.ObjectMeta{Name: target.Name}},
		},
		Actions: []explore.Action{deleteWidget},
	}
}

// cesOptions keep the search small: one stale read, of one version back.
// Setting deletionTimestamp bumps the Widget's generation, which the
// reconciler does not acknowledge: not this test's business.
func cesOptions(t *testing.T) explore.Options {
	o := serverOptions(t)
	o.Versions, o.StaleReads = 2, 1
	o.Disable = []string{explore.InvariantObservedGenerationStuck}
	return o
}

// The external-secrets shape: after a stale read of the Gadget in the
// cleanup, the Widget keeps its finalizer for good. That is reported as
// "no stuck finalizer", naming the finalizer, the reconcile that added it
// and the steady reconcile that leaves it; "no delete of own creation"
// does not fire on the cleanup's delete of the Gizmo, with or without an
// owner reference (the user deleted its parent). The fix (a fresh read)
// passes every schedule; the report's JSON carries the invariant's name;
// Options.Disable turns it off.
func TestStuckFinalizerAfterAStaleCleanup(t *testing.T) {
	for _, unowned := range []bool{false, true} {
		o := cesOptions(t)
		o.Report = filepath.Join(t.TempDir(), "report.json")
		res, err := explore.Run(t.Context(), cesScenario(cesReconciler{unowned: unowned}), o)
		if err != nil {
			t.Fatal(err)
		}
		v := res.Violation
		if v == nil || v.Invariant != explore.InvariantStuckFinalizer ||
			!strings.Contains(v.Message, "Widget ns/w is being deleted (since step 2) and keeps the finalizer "+cesFinalizer+" that step 1 (ces reconciles Widget ns/w) added") ||
			!strings.Contains(v.Message, "returned done, wrote nothing and asked for no requeue") {
			t.Fatalf("unowned %t: want %s of Widget ns/w, got:\n%v", unowned, explore.InvariantStuckFinalizer, v)
		}
		if v.Broke(explore.InvariantOwnDelete) {
			t.Fatalf("unowned %t: %s on the cleanup of a Widget the user deleted:\n%s", unowned, explore.InvariantOwnDelete, v)
		}
		if !strings.Contains(v.String(), "read  Gadget target v1 (cache, STALE: newest is v2)") || v.Chosen() != 3 {
			t.Fatalf("unowned %t: want the cleanup's stale read of the Gadget in 3 chosen steps:\n%s", unowned, v)
		}
		t.Logf("unowned %t, found after %d schedules:\n%s", unowned, v.Schedules, v)

		data, err := os.ReadFile(o.Report)
		if err != nil {
			t.Fatal(err)
		}
		var rep struct {
			Violations []struct{ Invariant, Replay string }
		}
		if err := json.Unmarshal(data, &rep); err != nil {
			t.Fatal(err)
		}
		if len(rep.Violations) != 1 || rep.Violations[0].Invariant != explore.InvariantStuckFinalizer || rep.Violations[0].Replay != v.Seed {
			t.Fatalf("unowned %t: the report does not carry %q with its replay: %s", unowned, explore.InvariantStuckFinalizer, data)
		}
	}

	o := cesOptions(t)
	o.Disable = append(o.Disable, explore.InvariantStuckFinalizer)
	res, err := explore.Run(t.Context(), cesScenario(cesReconciler{}), o)
	if err != nil || res.Violation != nil || !res.Exhausted {
		t.Fatalf("disabled: want every schedule run without violation, got %v, %+v\n%v", err, res, res.Violation)
	}

	res, err = explore.Run(t.Context(), cesScenario(cesReconciler{fresh: true}), cesOptions(t))
	if err != nil || res.Violation != nil || !res.Exhausted {
		t.Fatalf("fixed: want every schedule run without violation, got %v, %+v\n%v", err, res, res.Violation)
	}
	t.Logf("fixed: %d schedules (%d pruned)", res.Schedules, res.Pruned)
}
