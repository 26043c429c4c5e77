package explore_test

import (
	"context"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// pairProvisioner gives each Widget two Gizmos, w-a and w-b, and reports
// the reconcile in status.phase from a deferred status write, as Cluster
// API's patch helper does: "Ready" when the reconcile succeeded,
// "Degraded" when a write failed. A leader that loses its lease after
// creating w-a sends the create of w-b; it never sees the answer, so the
// create fails, and the deferred write sends "Degraded": two writes in
// flight. Delivered after the new leader created w-b and wrote "Ready",
// the create gets a 409 and the blind "Degraded" lands over "Ready". With
// one write in flight the old leader's "Degraded" is never sent (its
// status write fails at once), and with the optimistic lock it gets a 409.
type pairProvisioner struct {
	c    client.Client
	lock bool
}

func (r *pairProvisioner) Reconcile(ctx context.Context, req ctrl.Request) (_ ctrl.Result, err error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := w.DeepCopy()
	defer func() {
		phase := "Ready"
		if err != nil {
			phase = "Degraded"
		}
		if w.Status.Phase == phase {
			return
		}
		w.Status.Phase = phase
		patch := client.MergeFrom(base)
		if r.lock {
			patch = client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})
		}
		if perr := r.c.Status().Patch(ctx, w, patch); perr != nil && err == nil {
			err = perr
		}
	}()
	for _, suffix := range []string{"a", "b"} {
		key := types.NamespacedName{Namespace: w.Namespace, Name: w.Name + "-" + suffix}
		if err := r.c.Get(ctx, key, &testv1.Gizmo{}); err == nil {
			continue
		} else if !apierrors.IsNotFound(err) {
			return ctrl.Result{}, err
		}
		g := &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}}
		if err := controllerutil.SetControllerReference(w, g, r.c.Scheme()); err != nil {
			return ctrl.Result{}, err
		}
		if err := r.c.Create(ctx, g); client.IgnoreAlreadyExists(err) != nil {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, nil
}

func pairScenario(lock bool) explore.Scenario {
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "widget", For: &testv1.Widget{}, Owns: []client.Object{&testv1.Gizmo{}},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return &pairProvisioner{c: c, lock: lock} }}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
	}
}

// The old leader's two writes in flight, the create of w-b and the
// deferred "Degraded", delivered after the new leader's "Ready": the
// second loses it. Found with InFlightWrites 2 as a lost write blamed on
// the second write's delivery and its sending step, with a seed that
// replays; with one write in flight (InFlightWrite, or InFlightWrites 1)
// the search at the same bounds finds nothing.
func TestLeaderTwoInFlightWritesLoseStatus(t *testing.T) {
	o := inFlightOptions(t)
	o.InFlightWrite = true
	if res, err := explore.Run(t.Context(), pairScenario(false), o); err != nil || res.Violation != nil || !res.Exhausted {
		t.Fatalf("one write in flight: want the space exhausted without a violation, got %v, %+v", err, res)
	}
	o.InFlightWrite, o.InFlightWrites = false, 2
	res, err := explore.Run(t.Context(), pairScenario(false), o)
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || v.Invariant != explore.InvariantLostWrite ||
		!strings.Contains(v.Message, "status.phase written by step 2 (v2) overwritten by step 4 (the old leader's write 2 sent by step 1, in flight until now) (v3), which had seen only v1") ||
		!strings.Contains(v.String(), "the old leader's next writes (create Gizmo ns/w-b; status patch Widget ns/w) are in flight") ||
		!strings.Contains(v.String(), "in-flight write 2 of widget:ns/w (old leader) (drain, fresh reads): write 2 sent by step 1 before it lost the lease, delivered now: ok") ||
		v.Seed != "widget:ns/w@0,0,0#1Z2" {
		t.Fatalf("want the old leader's Degraded landing over the new leader's Ready, seed widget:ns/w@0,0,0#1Z2, got:\n%v", v)
	}
	t.Logf("found after %d schedules:\n%s", v.Schedules, v)
	// The seed says how many writes the old leader leaves in flight: it
	// replays without the option.
	o.InFlightWrites, o.Replay = 0, v.Seed
	again, err := explore.Run(t.Context(), pairScenario(false), o)
	if err != nil || again.Violation == nil || again.Violation.Message != v.Message || again.Diverged != "" {
		t.Fatalf("replay of %q: got %v, %+v", v.Seed, err, again)
	}
	// Either write may land first: the status write delivered before the
	// new leader acts loses nothing, the create delivered late nothing.
	for _, seed := range []string{v.Seed + " ~2:widget:ns/w", v.Seed + " ~2:widget:ns/w widget:ns/w@0,0,0 ~widget:ns/w"} {
		o.Replay = seed
		if r, err := explore.Run(t.Context(), pairScenario(false), o); err != nil || r.Violation != nil {
			t.Fatalf("replay of %q: want no violation, got %v, %v", seed, err, r.Violation)
		}
	}
	o.Replay = v.Seed + " widget:ns/w@0,0,0 ~2:widget:ns/w ~widget:ns/w"
	if late, err := explore.Run(t.Context(), pairScenario(false), o); err != nil || late.Violation == nil || !strings.Contains(late.Violation.Message, "overwritten by step 3 (the old leader's write 2 sent by step 1") {
		t.Fatalf("replay of %q: want the status write lost, got %v, %v", o.Replay, err, late)
	}
	// "#1Z" is one write in flight, as before InFlightWrites.
	o.Replay = "widget:ns/w@0,0,0#1Z"
	if one, err := explore.Run(t.Context(), pairScenario(false), o); err != nil || one.Violation != nil {
		t.Fatalf("replay of %q: want no violation, got %v, %v", o.Replay, err, one.Violation)
	}
}

// With the optimistic lock the deferred status write carries the
// resourceVersion the old leader read, and the create of w-b finds it
// made: delivered after the new leader's writes both get a 409, and
// nothing is reported. Every schedule delivers each held write exactly
// once, and the search delivers them in both orders.
func TestLeaderTwoInFlightWritesConflict(t *testing.T) {
	o := inFlightOptions(t)
	o.InFlightWrites = 2
	res, schedules, err := explore.RunInFlight(t.Context(), pairScenario(true), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted {
		t.Fatalf("the optimistic lock: want the space exhausted without a violation, got %+v:\n%v", res, res.Violation)
	}
	two, conflicts, secondFirst := 0, map[string]int{}, 0
	for i, s := range schedules {
		if s.Delivered != s.HeldWrites || len(s.At) != s.HeldWrites || s.HeldWrites > 2 {
			t.Fatalf("schedule %d: held %d writes, delivered %d times (steps %v), want each once", i, s.HeldWrites, s.Delivered, s.At)
		}
		if s.HeldWrites < 2 {
			continue
		}
		two++
		if s.Order[0] == 2 {
			secondFirst++
		}
		for _, a := range s.Answers {
			switch {
			case strings.Contains(a, "already exists"):
				conflicts["create"]++
			case strings.Contains(a, "the object has been modified"):
				conflicts["status"]++
			}
		}
	}
	if two == 0 || secondFirst == 0 || conflicts["create"] == 0 || conflicts["status"] == 0 {
		t.Fatalf("of %d schedules run to the end, %d held two writes, %d delivered the second first, 409s %v: want some of each", len(schedules), two, secondFirst, conflicts)
	}
	t.Logf("%d schedules (%d pruned): %d held two writes, %d delivered the second first, 409s %v", res.Schedules, res.Pruned, two, secondFirst, conflicts)
}

// A seed's "#nZk" and "~k:" parse; a bound or an ordinal below 1 does not.
// A delivery of a write never held does nothing.
func TestLeaderInFlightWritesSeed(t *testing.T) {
	o := inFlightOptions(t)
	for _, seed := range []string{"~2:widget:ns/w widget:ns/w@0,0,0", "widget:ns/w@0,0,0#1Z ~2:widget:ns/w ~widget:ns/w"} {
		o.Replay = seed
		if res, err := explore.Run(t.Context(), pairScenario(false), o); err != nil || res.Violation != nil {
			t.Fatalf("replay of %q: want no violation, got %v, %v", seed, err, res.Violation)
		}
	}
	for _, seed := range []string{"~0:widget:ns/w", "~x:widget:ns/w", "~2:widget:ns/w@0", "widget:ns/w@0#1Z0", "widget:ns/w@0#1Zx", "widget:ns/w@0#1ZL"} {
		o.Replay = seed
		if _, err := explore.Run(t.Context(), pairScenario(false), o); err == nil {
			t.Errorf("replay of %q: want a parse error", seed)
		}
	}
}

// markedProvisioner is provisioner, then a blind merge patch of an
// annotation on the Widget, sent whatever the reconcile's error: a second
// write in flight that loses nothing.
type markedProvisioner struct{ provisioner }

func (r *markedProvisioner) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	res, err := r.provisioner.Reconcile(ctx, req)
	w := &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: req.Namespace, Name: req.Name}}
	mark := client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"annotations":{"example.com/provisioned":"yes"}}}`))
	if perr := r.c.Patch(ctx, w, mark); perr != nil && err == nil && !apierrors.IsNotFound(perr) {
		err = perr
	}
	return res, err
}

// A violation found with two writes in flight that needs one is
// minimised to one: the old leader's "Provisioning" loses the new
// leader's "Ready" whether or not its annotation patch is in flight too,
// so a random search that found it with "#1Z2" reports "#1Z".
func TestLeaderInFlightWritesMinimisedToOne(t *testing.T) {
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "widget", For: &testv1.Widget{}, Owns: []client.Object{&testv1.Gizmo{}},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler {
				return &markedProvisioner{provisioner{c: c}}
			}}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
	}
	for seed := int64(1); seed <= 20; seed++ {
		o := inFlightOptions(t)
		o.InFlightWrites, o.Seed = 2, seed
		res, schedules, err := explore.RunInFlight(t.Context(), s, o)
		if err != nil {
			t.Fatal(err)
		}
		first := -1
		for i, sc := range schedules {
			if sc.Violated {
				first = i
				break
			}
		}
		if res.Violation == nil || first < 0 || !strings.Contains(schedules[first].Seed, "Z2") {
			continue // found without two writes in flight: try the next seed
		}
		if v := res.Violation; v.Invariant != explore.InvariantLostWrite || !strings.HasPrefix(v.Seed, "widget:ns/w@0,0#1Z") || strings.Contains(v.Seed, "Z2") {
			t.Fatalf("seed %d: found as %q; want it minimised to one write in flight, got:\n%v", seed, schedules[first].Seed, v)
		}
		t.Logf("seed %d: found as %q, minimised to %q", seed, schedules[first].Seed, res.Violation.Seed)
		return
	}
	t.Fatal("no random seed of 1..20 found the lost status with two writes in flight")
}
