package explore_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// countingScenario is generatedScenario(true), whose Gizmo leaks when
// the process crashes between its create and its record, with a
// reconciler that also counts its reconciles in status.counters["n"], up
// to 20: every schedule of up to 12 chosen steps ends with more queued,
// in a state not seen before, so each level of the deepening is cut by
// its Depth, and the deepening, without a crash, exhausts every level to
// its last.
func countingScenario() explore.Scenario {
	s := generatedScenario(true)
	s.Reconcilers[0].New = func(c client.Client, api client.Reader) reconcile.Reconciler {
		inner := &generatedGizmo{c: c, api: api, generate: true}
		return reconcile.Func(func(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
			if _, err := inner.Reconcile(ctx, req); err != nil {
				return ctrl.Result{}, err
			}
			w := &testv1.Widget{}
			if err := api.Get(ctx, req.NamespacedName, w); err != nil || w.Status.Counters["n"] >= 20 {
				return ctrl.Result{}, client.IgnoreNotFound(err)
			}
			base := w.DeepCopy()
			w.Status.Counters = map[string]int64{"n": w.Status.Counters["n"] + 1}
			return ctrl.Result{}, c.Status().Patch(ctx, w, client.MergeFrom(base))
		})
	}
	return s
}

// TestFaultPhaseAfterDeepening: the default options and a Budget, nothing
// else, run the fault phase once the deepening ends with space left (here
// at its last level), and it finds the Gizmo a crash leaks, which no
// depth-first level finds without crashes; the violation names the phase
// and replays with its ReplayOptions; two workers give the same verdict.
// Options that are not the true defaults run no fault phase.
func TestFaultPhaseAfterDeepening(t *testing.T) {
	scheme := widgetScheme(t)
	fake := explore.Fake(scheme, &testv1.Widget{}, &testv1.Gizmo{})
	res, err := explore.Run(t.Context(), countingScenario(), explore.Options{Backend: fake, Parallel: 1, Budget: searchBound, StopAtFirst: true})
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || v.Invariant != explore.InvariantUser || !strings.Contains(v.Message, "2 Gizmos") {
		t.Fatalf("want the leaked Gizmo, got %d schedules at %s:\n%v", res.Schedules, res.Bounds, v)
	}
	want := explore.Bounds{Depth: 24, Versions: 8, StaleReads: 1, Level: 8, Faults: true}
	if v.Bounds != want || res.Bounds != want || !strings.Contains(v.String(), "the fault phase's random schedules, after deepening level 8") ||
		!strings.Contains(v.Seed, "#1") {
		t.Fatalf("want it found by the fault phase at %s, with its crash, got at %s (search at %s):\n%s", want, v.Bounds, res.Bounds, v)
	}
	t.Logf("found after %d schedules:\n%s", v.Schedules, v)
	ro := v.ReplayOptions()
	ro.Backend = fake
	again, err := explore.Run(t.Context(), countingScenario(), ro)
	if err != nil || again.Violation == nil || again.Violation.Message != v.Message {
		t.Fatalf("replay of %q: got %v, %v", v.Seed, err, again.Violation)
	}
	par, err := explore.Run(t.Context(), countingScenario(), explore.Options{Backend: explore.FakeWorlds(2, scheme, &testv1.Widget{}, &testv1.Gizmo{}),
		Parallel: 2, Budget: searchBound, StopAtFirst: true})
	if err != nil {
		t.Fatal(err)
	}
	if p := par.Violation; par.Workers != 2 || p == nil || p.Seed != v.Seed || p.Schedules != v.Schedules || p.Bounds != v.Bounds || p.Message != v.Message {
		t.Fatalf("two workers (%d): want the serial verdict (%s after %d schedules, %s), got:\n%v", par.Workers, v.Seed, v.Schedules, v.Bounds, p)
	}
	for _, o := range []explore.Options{
		{Backend: fake, Budget: searchBound, StopAtFirst: true, FixedBounds: true},
		{Backend: fake, Budget: searchBound, StopAtFirst: true, Deepen: true},
		{Backend: fake, Budget: searchBound, StopAtFirst: true, Depth: 12},
	} {
		res, err := explore.Run(t.Context(), countingScenario(), o)
		if err != nil {
			t.Fatal(err)
		}
		if res.Violation != nil || !res.Exhausted || res.Bounds.Faults {
			t.Fatalf("FixedBounds %t, Deepen %t, Depth %d: want no fault phase, exhausted without a violation, got %d schedules (exhausted %t) at %s:\n%v",
				o.FixedBounds, o.Deepen, o.Depth, res.Schedules, res.Exhausted, res.Bounds, res.Violation)
		}
	}
	res, err = explore.Run(t.Context(), countingScenario(), explore.Options{Backend: fake, Budget: searchBound, StopAtFirst: true, Crashes: 1})
	if err != nil {
		t.Fatal(err)
	}
	if v := res.Violation; v == nil || v.Bounds.Faults || v.Bounds.Level != 0 {
		t.Fatalf("Crashes 1: want the leak found by the depth-first search at level 0, got at %s:\n%v", res.Bounds, v)
	}
}

// TestFaultPhaseSchedules: each schedule of the fault phase crashes at
// most once and opens at most one stale window, never before its crash
// (up to it, it runs as its pilot did, with fresh reads); every stale
// read is in that window (which may serve several, in several steps);
// some do read stale after the crash. The scenario is countingScenario's with one more read, of the
// Widget through the cache, in each reconcile.
func TestFaultPhaseSchedules(t *testing.T) {
	s := countingScenario()
	counting := s.Reconcilers[0].New
	s.Reconcilers[0].New = func(c client.Client, api client.Reader) reconcile.Reconciler {
		inner := counting(c, api)
		return reconcile.Func(func(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
			if err := c.Get(ctx, req.NamespacedName, &testv1.Widget{}); err != nil {
				return ctrl.Result{}, client.IgnoreNotFound(err)
			}
			return inner.Reconcile(ctx, req)
		})
	}
	res, schedules, err := explore.RunFaultPhaseSteps(t.Context(), s, explore.Options{Backend: explore.Fake(widgetScheme(t), &testv1.Widget{}, &testv1.Gizmo{}),
		Parallel: 1, Budget: searchBound, StopAtFirst: true})
	if err != nil {
		t.Fatal(err)
	}
	if v := res.Violation; v == nil || !v.Bounds.Faults {
		t.Fatalf("want the leak found by the fault phase, got at %s:\n%v", res.Bounds, v)
	}
	staleAfter := 0
	for i, steps := range schedules {
		crashedAt, stale, outside := -1, 0, 0
		windows := map[string]bool{}
		for j, st := range steps {
			for _, w := range st.Windows {
				windows[fmt.Sprint(w.FromStep, w.Opened)] = true
			}
			for _, rd := range st.Reads {
				if !rd.API && rd.Version < rd.Newest {
					stale++
					if rd.Window == 0 {
						outside++
					}
				}
			}
			if !strings.HasPrefix(st.Result, "crashed") {
				continue
			}
			if crashedAt >= 0 {
				t.Fatalf("schedule %d crashed at steps %d and %d", i, crashedAt+1, j+1)
			}
			crashedAt = j
		}
		before := 0
		for _, st := range steps[:crashedAt+1] { // the crashing step read before its crash
			for _, rd := range st.Reads {
				if !rd.API && rd.Version < rd.Newest {
					before++
				}
			}
		}
		if len(windows) > 1 || outside > 0 || before > 0 || (crashedAt < 0 && stale > 0) {
			t.Fatalf("schedule %d: %d stale windows, %d stale reads (%d outside a window, %d before its crash at step %d):\n%s",
				i, len(windows), stale, outside, before, crashedAt+1, stepsText(steps))
		}
		if crashedAt >= 0 {
			staleAfter += stale
		}
	}
	if staleAfter == 0 {
		t.Fatalf("no schedule of %d read stale after its crash", len(schedules))
	}
	t.Logf("%d schedules, %d with a stale read after the crash", len(schedules), staleAfter)
}

func stepsText(steps []explore.Step) string {
	var b strings.Builder
	for _, s := range steps {
		b.WriteString(s.String())
	}
	return b.String()
}
