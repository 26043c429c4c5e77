package explore_test

import (
	"context"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// twoWriteStatus is a Flux-style status helper: it writes the Widget's
// phase Ready, then, in a second write, status.observedGeneration, and
// skips a Widget whose phase is already Ready. A crash between the two
// writes leaves observedGeneration absent at generation 1 for good. With
// noObservedGeneration it never sets the field (its type has one).
type twoWriteStatus struct {
	c                    client.Client
	noObservedGeneration bool
}

func (r *twoWriteStatus) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if w.Status.Phase == "Ready" {
		return ctrl.Result{}, nil
	}
	base := w.DeepCopy()
	w.Status.Phase = "Ready"
	if err := r.c.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})); err != nil {
		return ctrl.Result{}, err
	}
	if r.noObservedGeneration {
		return ctrl.Result{}, nil
	}
	base = w.DeepCopy()
	w.Status.ObservedGeneration = w.Generation
	return ctrl.Result{}, r.c.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
}

func twoWriteScenario(noObservedGeneration bool) explore.Scenario {
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "widget", For: &testv1.Widget{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler {
				return &twoWriteStatus{c: c, noObservedGeneration: noObservedGeneration}
			}}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
	}
}

// observedGeneration is checked when absent at generation 1 too, in a
// steady state (every queued reconcile run, then a round of every
// reconciler on every object with fresh reads that wrote nothing): a
// crash between the helper's two writes leaves the Widget Ready with no
// observedGeneration at generation 1, which no later reconcile fixes.
// An operator that never sets the field, though its type has it, is not
// reported: the same schedule with fresh reads and no crash does not set
// it either.
func TestObservedGenerationAbsentAtGenerationOne(t *testing.T) {
	o := serverOptions(t)
	o.Crashes = 1
	res, err := explore.Run(t.Context(), twoWriteScenario(false), o)
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || v.Invariant != explore.InvariantObservedGenerationStuck || !strings.Contains(v.Message, "Widget ns/w: status.observedGeneration absent at generation 1 in a steady state") {
		t.Fatalf("want %s absent at generation 1, got:\n%v", explore.InvariantObservedGenerationStuck, v)
	}
	t.Logf("found after %d schedules:\n%s", v.Schedules, v)
	again, err := explore.Run(t.Context(), twoWriteScenario(false), explore.Options{Backend: o.Backend, Replay: v.Seed})
	if err != nil || again.Violation == nil || again.Violation.Invariant != explore.InvariantObservedGenerationStuck {
		t.Fatalf("replay of %q: want it again, got %v, %v", v.Seed, err, again.Violation)
	}

	res, err = explore.Run(t.Context(), twoWriteScenario(true), o)
	if err != nil || res.Violation != nil || !res.Exhausted {
		t.Fatalf("never sets observedGeneration: want no violation, every schedule run; got %v, %+v:\n%v", err, res, res.Violation)
	}
	t.Logf("never sets it: no violation in %d schedules", res.Schedules)
}

// The judgement of an absent observedGeneration runs the schedule again
// with fresh reads and no crash; schedules that differ only in their
// lags and crashes share that fresh schedule, which runs once. On an
// operator that never sets the field (each faulted schedule gives one to
// judge), two Widgets, Depth 4, Crashes 1: 90 schedules, 117
// BeginSchedule calls (154, 64 fresh schedules, without the memo).
func TestObservedGenerationJudgementReusesFreshSchedules(t *testing.T) {
	o := serverOptions(t)
	o.Depth, o.Crashes, o.Parallel, o.Quiet = 4, 1, 1, true
	s := twoWriteScenario(true)
	s.Objects = append(s.Objects, &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w2"}})
	begins := 0
	s.BeginSchedule = func(context.Context) error { begins++; return nil }
	res, err := explore.Run(t.Context(), s, o)
	if err != nil || res.Violation != nil || !res.Exhausted {
		t.Fatalf("want no violation, every schedule run; got %v, %+v:\n%v", err, res, res.Violation)
	}
	if fresh := begins - res.Schedules; fresh <= 0 || fresh >= (res.Schedules-res.Pruned)/2 {
		t.Fatalf("%d schedules (%d pruned), %d fresh ones judged them: want some, fewer than half the schedules run to their end", res.Schedules, res.Pruned, fresh)
	}
	t.Logf("%d schedules (%d pruned), %d fresh ones", res.Schedules, res.Pruned, begins-res.Schedules)
}
