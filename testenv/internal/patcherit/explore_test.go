package patcherit_test

// The explorer's own tests (package testenv/explore), on its fake backend.
// They live here, not next to explore, because explore imports testenv:
// a test binary of its own would link the API server and etcd a second
// time in this module (docs/benchmarks.md#cold-start).

import (
	"context"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// widgetFunc is a reconciler of one Widget: decide changes w in place
// (from the cached read) and the result is written back.
type widgetFunc struct {
	c, api client.Client
	locked bool // optimistic lock, re-read through api on a conflict
	decide func(w *testv1.Widget)
}

func (r *widgetFunc) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	for attempt := 0; ; attempt++ {
		base := w.DeepCopy()
		r.decide(w)
		patch := client.MergeFrom(base)
		if r.locked {
			patch = client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})
		}
		err := r.c.Status().Patch(ctx, w, patch)
		if !r.locked || !apierrors.IsConflict(err) || attempt == 3 {
			return ctrl.Result{}, err
		}
		if err := r.api.Get(ctx, req.NamespacedName, w); err != nil {
			return ctrl.Result{}, err
		}
	}
}

func widgetScenario(locked bool, decide func(w *testv1.Widget)) explore.Scenario {
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "widget", For: &testv1.Widget{},
			New: func(c client.Client, api client.Reader) reconcile.Reconciler {
				return &widgetFunc{c: c, api: api.(client.Client), locked: locked, decide: decide}
			}}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
	}
}

// addItem appends "one", then "two", once each: a decision on what was read.
func addItem(w *testv1.Widget) {
	switch len(w.Status.Items) {
	case 0:
		w.Status.Items = []string{"one"}
	case 1:
		w.Status.Items = append(w.Status.Items, "two")
	}
}

func fakeOptions() explore.Options {
	s := runtime.NewScheme()
	if err := testv1.AddToScheme(s); err != nil {
		panic(err)
	}
	return explore.Options{Backend: explore.Fake(s, &testv1.Widget{})}
}

func runExplore(t *testing.T, s explore.Scenario, o explore.Options) *explore.Result {
	t.Helper()
	if o.Budget == 0 {
		// A bound, not a deadline: each test here ends at its first
		// violation or with its depth exhausted, and asserts which; a
		// search cut short by a loaded machine's clock must not decide it.
		// A search now spends its whole budget ranking every violation
		// (docs/explore.md): these tests assert the first, so they stop there.
		o.Budget = 10 * time.Minute
		o.StopAtFirst = true
	}
	res, err := explore.Run(context.Background(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestExploreBlindWriteIsLostAndReplays(t *testing.T) {
	// One manager's cache never goes backwards (informers.View): the
	// read of the first version again comes from a new leader's cache.
	opts := func() explore.Options {
		o := fakeOptions()
		o.Crashes, o.LeaderChange = 1, true
		return o
	}
	res := runExplore(t, widgetScenario(false, addItem), opts())
	v := res.Violation
	// "one" (fresh), "two" (fresh), a leader change, then "one" again from
	// the first version.
	if v == nil || v.Invariant != explore.InvariantLostWrite || v.Chosen() < 3 {
		t.Fatalf("want a lost write in 3 or more chosen steps, got %v", v)
	}
	if !strings.Contains(v.Message, "status.items") || !strings.Contains(v.String(), "STALE") {
		t.Errorf("want the lost field and the stale read in the schedule:\n%s", v)
	}
	o := opts()
	o.Replay = v.Seed
	again := runExplore(t, widgetScenario(false, addItem), o)
	if again.Violation == nil || again.Violation.Message != v.Message {
		t.Fatalf("replay of %q: got %v, want %s", v.Seed, again.Violation, v.Message)
	}
}

func TestExploreLockedWriteWithFreshRetryPasses(t *testing.T) {
	res := runExplore(t, widgetScenario(true, addItem), fakeOptions())
	if res.Violation != nil || !res.Exhausted {
		t.Fatalf("want no violation and an exhausted search, got %+v\n%v", res, res.Violation)
	}
}

// TestExploreStateHashingPrunes: two widgets reconciled in either order reach the
// same state; the second order is cut short.
func TestExploreStateHashingPrunes(t *testing.T) {
	s := widgetScenario(true, addItem)
	s.Objects = append(s.Objects, &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w2"}})
	o := fakeOptions()
	o.StaleReads = -1
	res := runExplore(t, s, o)
	if res.Violation != nil || !res.Exhausted || res.Pruned == 0 {
		t.Fatalf("want an exhausted search with pruned schedules, got %d pruned of %d, violation %v", res.Pruned, res.Schedules, res.Violation)
	}
}

// TestExploreRandomSearchFindsTheSameBug: random search, then minimisation.
func TestExploreRandomSearchFindsTheSameBug(t *testing.T) {
	o := fakeOptions()
	o.Seed = 7
	o.Crashes, o.LeaderChange = 1, true // as TestExploreBlindWriteIsLostAndReplays
	// Random schedules have Depth (4) chosen steps; the minimiser drops what it can.
	if v := runExplore(t, widgetScenario(false, addItem), o).Violation; v == nil || v.Invariant != explore.InvariantLostWrite || v.Chosen() < 3 {
		t.Fatalf("want a lost write in 3 or more chosen steps, got %v", v)
	}
}

func TestExploreObservedGenerationPastGeneration(t *testing.T) {
	v := runExplore(t, widgetScenario(true, func(w *testv1.Widget) { w.Status.ObservedGeneration = w.Generation + 1 }), fakeOptions()).Violation
	if v == nil || v.Invariant != explore.InvariantObservedGeneration || !strings.Contains(v.Message, "passes generation") {
		t.Fatalf("want observedGeneration passing generation, got %v", v)
	}
}

// countTo counts status.counters.n up by one a reconcile, to limit.
func countTo(limit int64) func(w *testv1.Widget) {
	return func(w *testv1.Widget) {
		if w.Status.Counters == nil {
			w.Status.Counters = map[string]int64{}
		}
		if w.Status.Counters["n"] < limit {
			w.Status.Counters["n"]++
		}
	}
}

// A counter that never stops writes a new state every round: past the
// drain's default bound, converges is broken.
func TestExploreNeverSteady(t *testing.T) {
	v := runExplore(t, widgetScenario(true, countTo(1<<62)), fakeOptions()).Violation
	if v == nil || v.Invariant != explore.InvariantConverges || !strings.Contains(v.Message, "no steady state within 1000 steps") {
		t.Fatalf("want no convergence within the default bound, got %v", v)
	}
}

// A reconcile that flips a field back and forth brings the drain back to
// a state it was in: converges is broken at once, with that evidence, not
// at the bound.
func TestExploreDrainLoops(t *testing.T) {
	v := runExplore(t, widgetScenario(true, func(w *testv1.Widget) {
		w.Status.Phase = map[string]string{"": "a", "a": "b", "b": "a"}[w.Status.Phase]
	}), fakeOptions()).Violation
	if v == nil || v.Invariant != explore.InvariantConverges || !strings.Contains(v.Message, "the drain loops") {
		t.Fatalf("want the drain's loop, got %v", v)
	}
}

// A scenario that needs more drain steps than a small bound still
// converges with the default options (no bound of the user's: no loop,
// so no report), and breaks converges only under a bound the user sets.
func TestExploreLongDrainConverges(t *testing.T) {
	o := fakeOptions()
	o.FixedBounds = true // the default bounds, one level: every schedule, no budget's worth of deepening
	if res := runExplore(t, widgetScenario(true, countTo(80)), o); res.Violation != nil || !res.Exhausted {
		t.Fatalf("80 writes, then steady: want no violation and every schedule run with the default bounds, got %+v\n%v", res, res.Violation)
	}
	o.MaxSteps = 50
	v := runExplore(t, widgetScenario(true, countTo(80)), o).Violation
	if v == nil || v.Invariant != explore.InvariantConverges || !strings.Contains(v.Message, "within 50 steps after the chosen ones (Options.MaxSteps)") {
		t.Fatalf("with MaxSteps 50: want converges broken, got %v", v)
	}
}

func TestExplorePanicIsAViolation(t *testing.T) {
	v := runExplore(t, widgetScenario(true, func(*testv1.Widget) { panic("boom") }), fakeOptions()).Violation
	if v == nil || v.Invariant != explore.InvariantNoPanic || !strings.Contains(v.Message, "boom") {
		t.Fatalf("want the panic, got %v", v)
	}
}

func TestExploreUserInvariant(t *testing.T) {
	s := widgetScenario(true, addItem)
	s.Invariant = func(ctx context.Context, r client.Reader) error {
		w := &testv1.Widget{}
		if err := r.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "w"}, w); err != nil {
			return err
		}
		if len(w.Status.Items) != 3 {
			return apierrors.NewBadRequest("want 3 items")
		}
		return nil
	}
	if v := runExplore(t, s, fakeOptions()).Violation; v == nil || v.Invariant != explore.InvariantUser {
		t.Fatalf("want the user invariant, got %v", v)
	}
}

func TestExploreBadInput(t *testing.T) {
	good := widgetScenario(true, addItem)
	for name, tc := range map[string]struct {
		s    explore.Scenario
		o    func(*explore.Options)
		want string
	}{
		"no backend":     {good, func(o *explore.Options) { o.Backend = nil }, "Options.Backend is nil"},
		"no reconcilers": {explore.Scenario{}, nil, "no reconcilers"},
		"bad name": {explore.Scenario{Reconcilers: []explore.Reconciler{{Name: "a b", For: &testv1.Widget{}, New: good.Reconcilers[0].New}}},
			nil, `name "a b"`},
		"seed reconciler": {good, func(o *explore.Options) { o.Replay = "nope:ns/w@0" }, "reconciler of the scenario"},
		"seed lag":        {good, func(o *explore.Options) { o.Replay = "widget:ns/w@x" }, `lag "x"`},
		"seed action":     {good, func(o *explore.Options) { o.Replay = "!bump" }, `no action "bump"`},
	} {
		o := fakeOptions()
		if tc.o != nil {
			tc.o(&o)
		}
		_, err := explore.Run(context.Background(), tc.s, o)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error with %q", name, err, tc.want)
		}
	}
}
