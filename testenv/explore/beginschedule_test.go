package explore_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// scheduleLog records, in order, each call of BeginSchedule ("begin") and
// of New (the schedule's Source): New runs at the start of a schedule and
// again after each crash restart and leader change.
type scheduleLog struct {
	mu     sync.Mutex
	begins int
	events []*explore.Source // nil: a BeginSchedule
}

// hooked is s with BeginSchedule and New recording into l; check, if set,
// runs in BeginSchedule.
func (l *scheduleLog) hooked(s explore.Scenario, check func(ctx context.Context) error) explore.Scenario {
	s.Reconcilers = append([]explore.Reconciler(nil), s.Reconcilers...)
	rc := s.Reconcilers[0]
	newRec := rc.New
	rc.New = func(c client.Client, api client.Reader) reconcile.Reconciler {
		l.mu.Lock()
		l.events = append(l.events, explore.SourceOf(c))
		l.mu.Unlock()
		return newRec(c, api)
	}
	s.Reconcilers[0] = rc
	s.BeginSchedule = func(ctx context.Context) error {
		l.mu.Lock()
		l.begins++
		l.events = append(l.events, nil)
		l.mu.Unlock()
		if check != nil {
			return check(ctx)
		}
		return nil
	}
	return s
}

// schedules splits a serial search's log at each BeginSchedule: every
// schedule must start with one, and build its reconcilers (New) on one
// Source, new for it, as many times as it started processes. It returns
// how many schedules built them more than once (restarted or changed
// leader).
func (l *scheduleLog) schedules(t *testing.T) int {
	t.Helper()
	var groups [][]*explore.Source
	for i, e := range l.events {
		switch {
		case e == nil:
			groups = append(groups, nil)
		case len(groups) == 0:
			t.Fatalf("event %d: New ran before any BeginSchedule", i)
		default:
			groups[len(groups)-1] = append(groups[len(groups)-1], e)
		}
	}
	again := 0
	for i, g := range groups {
		if len(g) == 0 {
			t.Fatalf("schedule %d: BeginSchedule ran twice in a row, or for no schedule", i)
		}
		for _, src := range g[1:] {
			if src != g[0] {
				t.Fatalf("schedule %d: two Sources without a BeginSchedule between them: it did not run at a schedule's start", i)
			}
		}
		if i > 0 && g[0] == groups[i-1][0] {
			t.Fatalf("schedule %d: the Source of the schedule before: BeginSchedule ran within a schedule", i)
		}
		if len(g) > 1 {
			again++
		}
	}
	return again
}

// BeginSchedule runs once per schedule, at its start on a clean server
// before the scenario's objects are created, and never after a crash
// restart or a leader change: with Crashes 1 and LeaderChange, as many
// times as the Result counts schedules, although New (and Setup) run
// again after each crash.
func TestBeginScheduleOncePerSchedule(t *testing.T) {
	env := server(t)
	l := &scheduleLog{}
	clean := func(ctx context.Context) error {
		for _, o := range []client.Object{&testv1.Widget{}, &testv1.Gizmo{}} {
			switch err := env.Client.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "w"}, o); {
			case err == nil:
				return fmt.Errorf("%T ns/w exists at the start of a schedule", o)
			case !apierrors.IsNotFound(err):
				return fmt.Errorf("reading %T ns/w: %w", o, err)
			}
		}
		return nil
	}
	s := l.hooked(gizmoScenario(gizmoReconciler{adopt: true}), clean)
	o := serverOptions(t)
	o.Crashes, o.LeaderChange = 1, true
	res, err := explore.Run(t.Context(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted {
		t.Fatalf("want every schedule run without violation, got exhausted %t:\n%v", res.Exhausted, res.Violation)
	}
	if l.begins != res.Schedules {
		t.Fatalf("BeginSchedule ran %d times, want once for each of the %d schedules", l.begins, res.Schedules)
	}
	if again := l.schedules(t); again == 0 {
		t.Fatalf("no schedule of %d restarted or changed leader: the test shows nothing", res.Schedules)
	} else {
		t.Logf("%d schedules (%d pruned), %d of them with a crash restart or leader change, %d New calls", res.Schedules, res.Pruned, again, len(l.events)-l.begins)
	}

	// A replay runs its schedule twice, each with its crash.
	for _, seed := range []string{"widget:ns/w@0,0#1", "widget:ns/w@0,0#1L"} {
		l = &scheduleLog{}
		o.Replay = seed
		res, err = explore.Run(t.Context(), l.hooked(gizmoScenario(gizmoReconciler{adopt: true}), clean), o)
		if err != nil || res.Violation != nil {
			t.Fatalf("replay %s: %v, %v", seed, err, res.Violation)
		}
		if again := l.schedules(t); l.begins != 2 || res.Schedules != 2 || again != 2 {
			t.Fatalf("replay %s: BeginSchedule ran %d times, %d schedules, %d with a crash: want 2, 2, 2", seed, l.begins, res.Schedules, again)
		}
	}
}

// In a parallel search each worker runs BeginSchedule for each schedule it
// runs (the serial search's and those it runs in vain), and in a shard for
// each schedule of the shard.
func TestBeginScheduleParallelAndSharded(t *testing.T) {
	scheme := widgetScheme(t)
	l := &scheduleLog{}
	s := l.hooked(gizmoScenario(gizmoReconciler{adopt: true}, resize), nil)
	o := explore.Options{Depth: 3, Crashes: 1, LeaderChange: true, Budget: searchBound, StopAtFirst: true,
		Backend: explore.FakeWorlds(2, scheme, &testv1.Widget{}), Parallel: 2}
	res, err := explore.Run(t.Context(), s, o)
	if err != nil || res.Violation != nil || !res.Exhausted {
		t.Fatalf("parallel: %v, %+v", err, res)
	}
	if res.Workers != 2 || l.begins != res.Schedules+res.Speculative {
		t.Fatalf("parallel: %d workers, BeginSchedule ran %d times for %d schedules and %d speculative ones", res.Workers, l.begins, res.Schedules, res.Speculative)
	}
	t.Logf("parallel: %d schedules, %d speculative", res.Schedules, res.Speculative)

	l = &scheduleLog{}
	s = l.hooked(gizmoScenario(gizmoReconciler{adopt: true}, resize), nil)
	o.Seed, o.Schedules, o.Shard = 7, 9, explore.Shard{Index: 1, Count: 3}
	res, err = explore.Run(t.Context(), s, o)
	if err != nil || res.Violation != nil {
		t.Fatalf("shard: %v, %+v", err, res)
	}
	if res.Schedules != 3 || l.begins != 3 {
		t.Fatalf("shard 1/3 of 9: %d schedules, BeginSchedule ran %d times, want 3 and 3", res.Schedules, l.begins)
	}
}

// An error of BeginSchedule fails Run, wrapped, naming the schedule.
func TestBeginScheduleError(t *testing.T) {
	boom := errors.New("the fake external system is down")
	l := &scheduleLog{}
	s := l.hooked(gizmoScenario(gizmoReconciler{adopt: true}), func(context.Context) error {
		if l.begins == 3 {
			return boom
		}
		return nil
	})
	for _, tc := range []struct {
		name string
		o    func(explore.Options) explore.Options
		want string
	}{
		{"depth-first", func(o explore.Options) explore.Options { return o }, "the depth-first schedule of depth "},
		{"random", func(o explore.Options) explore.Options { o.Seed, o.Schedules = 3, 5; return o }, "the random schedule 2 of Seed 3"},
		{"replay", func(o explore.Options) explore.Options { o.Replay = "widget:ns/w@0,0"; return o }, `the replay of "widget:ns/w@0,0"`},
	} {
		l.begins = 0
		if tc.name == "replay" {
			l.begins = 1 // a replay runs twice: fail the second
		}
		_, err := explore.Run(t.Context(), s, tc.o(serverOptions(t)))
		if !errors.Is(err, boom) || !strings.Contains(err.Error(), "Scenario.BeginSchedule") || !strings.Contains(err.Error(), tc.want) {
			t.Fatalf("%s: want the hook's error wrapped, naming %q, got %v", tc.name, tc.want, err)
		}
		t.Logf("%s: %v", tc.name, err)
	}
}
