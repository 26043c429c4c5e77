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

// provisioner gives each Widget a Gizmo of its name and reports it in
// status.phase: "Provisioning" from the reconcile that creates the Gizmo
// (two writes: the create, then the status), "Ready" once it exists. A
// leader that loses its lease between the two writes may still send the
// second: "Provisioning", computed from what it read, reaching the server
// after the new leader wrote "Ready". Without the optimistic lock (blind)
// it lands; with it, its resourceVersion is old and it gets a 409.
type provisioner struct {
	c    client.Client
	lock bool
}

func (r *provisioner) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	phase := "Ready"
	if err := r.c.Get(ctx, req.NamespacedName, &testv1.Gizmo{}); apierrors.IsNotFound(err) {
		g := &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, Name: w.Name}}
		if err := controllerutil.SetControllerReference(w, g, r.c.Scheme()); err != nil {
			return ctrl.Result{}, err
		}
		if err := r.c.Create(ctx, g); client.IgnoreAlreadyExists(err) != nil {
			return ctrl.Result{}, err
		}
		phase = "Provisioning"
	} else if err != nil {
		return ctrl.Result{}, err
	}
	if w.Status.Phase == phase {
		return ctrl.Result{}, nil
	}
	base := w.DeepCopy()
	w.Status.Phase, w.Status.ObservedGeneration = phase, w.Generation
	patch := client.MergeFrom(base)
	if r.lock {
		patch = client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})
	}
	return ctrl.Result{}, r.c.Status().Patch(ctx, w, patch)
}

func provisionerScenario(lock bool) explore.Scenario {
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "widget", For: &testv1.Widget{}, Owns: []client.Object{&testv1.Gizmo{}},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return &provisioner{c: c, lock: lock} }}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
	}
}

// inFlightOptions: fresh reads only, so that the old leader's write in
// flight is the only fault that can lose a write.
func inFlightOptions(t *testing.T) explore.Options {
	o := serverOptions(t)
	o.StaleReads, o.Crashes, o.LeaderChange = -1, 1, true
	return o
}

// The blind status write of a deposed leader, delivered after the new
// leader's, loses the new leader's status: found as a lost write blamed on
// the delivery, with a minimal seed ending in the "#1Z" crash, which
// replays. A restart or a leader change whose old leader sends nothing
// more (the model before Options.InFlightWrite) finds nothing.
func TestLeaderInFlightWriteLosesStatus(t *testing.T) {
	o := inFlightOptions(t)
	if res, err := explore.Run(t.Context(), provisionerScenario(false), o); err != nil || res.Violation != nil {
		t.Fatalf("leader change without the write in flight: want no violation, got %v, %v", err, res.Violation)
	}
	o.InFlightWrite = true
	res, err := explore.Run(t.Context(), provisionerScenario(false), o)
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || v.Invariant != explore.InvariantLostWrite ||
		!strings.Contains(v.Message, "status.phase written by step 2 (v2) overwritten by step 3 (the old leader's write sent by step 1, in flight until now) (v3), which had seen only v1") ||
		!strings.Contains(v.String(), "the old leader's next write (status patch Widget ns/w) is in flight") ||
		!strings.Contains(v.String(), "in-flight write of widget:ns/w (old leader) (drain, fresh reads): sent by step 1 before it lost the lease, delivered now: ok") ||
		v.Seed != "widget:ns/w@0,0#1Z" {
		t.Fatalf("want the old leader's Provisioning landing over the new leader's Ready, seed widget:ns/w@0,0#1Z, got:\n%v", v)
	}
	t.Logf("found after %d schedules:\n%s", v.Schedules, v)
	o.Replay = v.Seed
	again, err := explore.Run(t.Context(), provisionerScenario(false), o)
	if err != nil || again.Violation == nil || again.Violation.Message != v.Message || again.Diverged != "" {
		t.Fatalf("replay of %q: got %v, %+v", v.Seed, err, again)
	}
	// Where it lands is the schedule's: delivered before the new leader
	// acts, it loses nothing; after the new leader's step, as the drain
	// delivered it, the same write is lost.
	o.Replay = v.Seed + " ~widget:ns/w"
	if first, err := explore.Run(t.Context(), provisionerScenario(false), o); err != nil || first.Violation != nil {
		t.Fatalf("replay of %q: want no violation, got %v, %v", o.Replay, err, first.Violation)
	}
	o.Replay = v.Seed + " widget:ns/w@0,0 ~widget:ns/w"
	late, err := explore.Run(t.Context(), provisionerScenario(false), o)
	if err != nil || late.Violation == nil || late.Violation.Message != v.Message {
		t.Fatalf("replay of %q: want %q, got %v, %v", o.Replay, v.Message, err, late.Violation)
	}
}

// With the optimistic lock the write in flight carries the resourceVersion
// the old leader read: delivered after the new leader's write it gets a
// 409, and nothing is lost. Every schedule that holds a write delivers it
// exactly once, at points the search chooses.
func TestLeaderInFlightWriteOnceAndConflicts(t *testing.T) {
	o := inFlightOptions(t)
	o.InFlightWrite = true
	res, schedules, err := explore.RunInFlight(t.Context(), provisionerScenario(true), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil {
		t.Fatalf("the optimistic lock: want no violation, got:\n%s", res.Violation)
	}
	held, conflicts, at := 0, 0, map[int]bool{}
	for i, s := range schedules {
		if want := map[bool]int{false: 0, true: 1}[s.Held]; s.Delivered != want || len(s.At) != want {
			t.Fatalf("schedule %d: held %t, delivered %d times (steps %v), want %d", i, s.Held, s.Delivered, s.At, want)
		}
		if !s.Held {
			continue
		}
		held++
		at[s.At[0]] = true
		for _, a := range s.Answers {
			if strings.Contains(a, "the object has been modified") {
				conflicts++
			}
		}
	}
	if held == 0 || conflicts == 0 || len(at) < 2 {
		t.Fatalf("of %d schedules run to the end, %d held a write, %d deliveries got a 409, delivered at steps %v: want some of each, at 2 points or more", len(schedules), held, conflicts, at)
	}
	t.Logf("%d schedules (%d pruned, exhausted %t): %d held a write, %d deliveries got a 409, delivered at steps %v", res.Schedules, res.Pruned, res.Exhausted, held, conflicts, at)
}

// A seed's "#nZ" and "~" delivery parse and replay; a delivery with
// nothing in flight (its crash taken out) does nothing.
func TestLeaderInFlightSeed(t *testing.T) {
	o := inFlightOptions(t)
	for _, seed := range []string{"~widget:ns/w widget:ns/w@0,0", "widget:ns/w@0,0 ~widget:ns/w"} {
		o.Replay = seed
		if res, err := explore.Run(t.Context(), provisionerScenario(false), o); err != nil || res.Violation != nil {
			t.Fatalf("replay of %q: want no violation, got %v, %v", seed, err, res.Violation)
		}
	}
	for _, seed := range []string{"~widget:ns/w@0", "~widget:ns/w#1", "widget:ns/w@0#1X"} {
		o.Replay = seed
		if _, err := explore.Run(t.Context(), provisionerScenario(false), o); err == nil {
			t.Errorf("replay of %q: want a parse error", seed)
		}
	}
}

// A write in flight the violation does not need is minimised away: the
// leaked Gizmo of generatedGizmo needs a leader change after the create,
// not the old leader's status write, so a random search that found it
// with the write in flight reports "#1L".
func TestLeaderInFlightMinimisedAway(t *testing.T) {
	for seed := int64(1); seed <= 12; seed++ {
		o := serverOptions(t)
		o.Crashes, o.InFlightWrite, o.Seed = 1, true, seed
		res, schedules, err := explore.RunInFlight(t.Context(), generatedScenario(true), o)
		if err != nil {
			t.Fatal(err)
		}
		if res.Violation == nil || len(schedules) == 0 || !schedules[len(schedules)-1].Held {
			continue // found without a write in flight: try the next seed
		}
		if v := res.Violation; v.Invariant != explore.InvariantUser || !strings.HasSuffix(v.Seed, "#1L") {
			t.Fatalf("seed %d: found with a write in flight; want it minimised to a leader change at write 1, got:\n%v", seed, v)
		}
		return
	}
	t.Fatal("no random seed of 1..12 found the leak with a write in flight")
}
