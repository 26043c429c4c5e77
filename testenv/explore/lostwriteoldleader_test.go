package explore_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
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
	"github.com/statuspatch/statuspatch/testenv/explore/report"
)

// syncer copies each Widget's size into a Gizmo of its name (created
// once: write 1) and then reports it in status by a blind merge patch
// computed from the Widget it read (write 2), as trust-manager's Bundle
// controller applies its Synced condition (examples/realops5): phase
// names the size synced, observedGeneration the generation. With
// record, it appends the size to status.items instead (if absent): a
// write that builds on the value it read.
type syncer struct {
	c      client.Client
	record bool
}

func (r *syncer) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := r.c.Get(ctx, req.NamespacedName, &testv1.Gizmo{}); apierrors.IsNotFound(err) {
		g := &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, Name: w.Name}}
		if err := controllerutil.SetControllerReference(w, g, r.c.Scheme()); err != nil {
			return ctrl.Result{}, err
		}
		if err := r.c.Create(ctx, g); client.IgnoreAlreadyExists(err) != nil {
			return ctrl.Result{}, err
		}
	} else if err != nil {
		return ctrl.Result{}, err
	}
	base := w.DeepCopy()
	synced := fmt.Sprintf("size %d", w.Spec.Size)
	if r.record {
		if slices.Contains(w.Status.Items, synced) {
			return ctrl.Result{}, nil
		}
		w.Status.Items = append(w.Status.Items, synced)
	} else {
		if w.Status.Phase == synced && w.Status.ObservedGeneration == w.Generation {
			return ctrl.Result{}, nil
		}
		w.Status.Phase, w.Status.ObservedGeneration = synced, w.Generation
	}
	return ctrl.Result{}, r.c.Status().Patch(ctx, w, client.MergeFrom(base))
}

func syncerScenario(record bool) explore.Scenario {
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "widget", For: &testv1.Widget{}, Owns: []client.Object{&testv1.Gizmo{}},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return &syncer{c: c, record: record} }}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Actions: []explore.Action{resize},
	}
}

// The old leader's status write, computed from the Widget before a
// resize and delivered after it, is overwritten by the new leader's
// reconcile of the resized Widget, whose cache lags by that write
// (v2, newest v3): trust-manager's Synced condition (examples/realops5).
// The delivered write is the reconciler's own, so the overwrite is
// judged again against the same schedule with the new leader's read
// fresh: it sends the same status, and nothing decided is lost (the
// report ranked it 2, "a decision lost"). A write that builds on what it
// read (an append) sends another value read fresh, and stands.
func TestLostWriteOverOldLeaderJudgedFresh(t *testing.T) {
	const seed = "widget:ns/w@0,0#1Z !resize ~widget:ns/w widget:ns/w@1,0"
	o := serverOptions(t)
	o.Crashes, o.InFlightWrite, o.Replay = 1, true, seed
	res, err := explore.Run(t.Context(), syncerScenario(false), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil {
		t.Fatalf("replay of %q, the same status read fresh: want no violation, got:\n%s", seed, res.Violation)
	}
	o.Report = filepath.Join(t.TempDir(), "report.json")
	res, err = explore.Run(t.Context(), syncerScenario(true), o)
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || v.Invariant != explore.InvariantLostWrite ||
		!strings.Contains(v.Message, "status.items written by step 3 (v3) overwritten by step 4 (v4), which had seen only v2") ||
		!strings.Contains(v.String(), "in-flight write of widget:ns/w (old leader)") {
		t.Fatalf("replay of %q, an append: want the old leader's item lost, got %v", seed, v)
	}
	t.Logf("%s", v)
	// A replay's violation is its Result's one Violations entry, and its
	// Report's, as a search's.
	if len(res.Violations) != 1 || res.Violations[0] != v || res.Elapsed <= 0 {
		t.Errorf("replay: want Violations [the violation] and the time it took, got %d, %s", len(res.Violations), res.Elapsed)
	}
	rep, err := report.Read(o.Report)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Violations) != 1 || rep.Violations[0].Message != v.Message || rep.Violations[0].Replay != seed || rep.Violations[0].Rank != v.Rank || rep.Ran != 2 {
		t.Errorf("replay's report: want the violation, its seed and rank, 2 schedules run, got %+v", rep)
	}
}
