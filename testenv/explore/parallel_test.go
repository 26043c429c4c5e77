package explore_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

func widgetScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	if err := testv1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return s
}

// parallelCases are searches with and without a violation, pruning and
// crashes: the built-in invariants' buggy reconcilers and the correct one.
func parallelCases() []struct {
	name string
	s    explore.Scenario
	o    explore.Options
} {
	type tc = struct {
		name string
		s    explore.Scenario
		o    explore.Options
	}
	return []tc{
		{"correct, with replace, delete and resize", gizmoScenario(gizmoReconciler{}, replaceGizmo, deleteGizmo, resize), explore.Options{Depth: 3}},
		{"stale parent", gizmoScenario(gizmoReconciler{staleParent: true}), explore.Options{Depth: 3}},
		{"stale parent behind a replace", gizmoScenario(gizmoReconciler{staleParent: true, adopt: true}, replaceGizmo, resize), explore.Options{Depth: 4}},
		{"blind status write, leader change", gizmoScenario(gizmoReconciler{blind: true}), explore.Options{Depth: 3, Crashes: 1, LeaderChange: true}},
		{"record of a deleted gizmo", gizmoScenario(gizmoReconciler{trustRecord: true}, deleteGizmo, resize), explore.Options{Depth: 3}},
		{"error loop", gizmoScenario(gizmoReconciler{errorLoop: true}, resize), explore.Options{Depth: 3}},
		{"blind status write, write in flight", gizmoScenario(gizmoReconciler{blind: true}, resize), explore.Options{Depth: 4, Crashes: 1, InFlightWrite: true}},
	}
}

// uids are the fake client's, new in every schedule.
var uids = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// verdict is what must not depend on the workers: the serial search's
// schedules and prunings counted, and the violation reported.
func verdict(res *explore.Result) string {
	s := fmt.Sprintf("schedules %d, pruned %d, exhausted %t", res.Schedules, res.Pruned, res.Exhausted)
	if v := res.Violation; v != nil {
		s += fmt.Sprintf("\n%s after %d schedules: %s\nalso %q\nseed %s\n%s", v.Invariant, v.Schedules, v.Message, v.Also, v.Seed, stepsOf(v))
	}
	for _, v := range res.Violations {
		s += fmt.Sprintf("\nrank %d (%s): %s after %d schedules, seed %s", v.Rank, v.RankReason, v.Invariant, v.Schedules, v.Seed)
	}
	return uids.ReplaceAllString(s, "UID")
}

func stepsOf(v *explore.Violation) string {
	var b strings.Builder
	for _, s := range v.Steps {
		b.WriteString(s.String())
	}
	return b.String()
}

// TestParallelSameVerdicts: two workers run the schedules the serial
// search runs, prune where it prunes, and report the violation it
// reports, after as many schedules; what they ran beyond that is counted
// apart (Speculative).
func TestParallelSameVerdicts(t *testing.T) {
	scheme := widgetScheme(t)
	for _, tc := range parallelCases() {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.o
			o.Budget = searchBound
			o.Backend, o.Parallel = explore.Fake(scheme, &testv1.Widget{}), 1
			serial, err := explore.Run(t.Context(), tc.s, o)
			if err != nil {
				t.Fatal(err)
			}
			o.Backend, o.Parallel = explore.FakeWorlds(2, scheme, &testv1.Widget{}), 2
			par, err := explore.Run(t.Context(), tc.s, o)
			if err != nil {
				t.Fatal(err)
			}
			if par.Workers != 2 || serial.Workers != 1 {
				t.Fatalf("workers %d and %d, want 1 and 2", serial.Workers, par.Workers)
			}
			if a, b := verdict(serial), verdict(par); a != b {
				t.Fatalf("serial:\n%s\nparallel:\n%s", a, b)
			}
			t.Logf("%s (speculative %d)", verdict(serial), par.Speculative)
		})
	}
}

// TestParallelLatestFirst starts, of the schedules the parallel search
// may start, the latest in the serial order first: every state is met
// first, in time, by the schedule the serial search meets it with last.
// The verdicts stay the serial search's.
func TestParallelLatestFirst(t *testing.T) {
	scheme := widgetScheme(t)
	for _, tc := range parallelCases() {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.o
			o.Budget = searchBound
			o.Backend, o.Parallel = explore.Fake(scheme, &testv1.Widget{}), 1
			serial, err := explore.Run(t.Context(), tc.s, o)
			if err != nil {
				t.Fatal(err)
			}
			o.Backend, o.Parallel = explore.FakeWorlds(2, scheme, &testv1.Widget{}), 2
			par, err := explore.RunLastFirst(t.Context(), tc.s, o)
			if err != nil {
				t.Fatal(err)
			}
			if a, b := verdict(serial), verdict(par); a != b {
				t.Fatalf("serial:\n%s\nparallel, latest first:\n%s", a, b)
			}
			t.Logf("schedules %d, pruned %d, speculative %d", par.Schedules, par.Pruned, par.Speculative)
		})
	}
}
