package explore_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/statuspatch/statuspatch/testenv/explore"
	"github.com/statuspatch/statuspatch/testenv/explore/report"
	testv1 "github.com/statuspatch/statuspatch/testenv/internal/testapi/v1"
)

// thriceFooled counts its Widget's reconciles in status.counters["n"],
// twice, and reads the Widget three times from the cache in each: if all
// three are older than the server's newest it writes status.phase
// "fooled". A bug only three stale reads in one reconcile show: the
// default bounds (2 stale reads per schedule) cannot.
type thriceFooled struct {
	c   client.Client
	api client.Reader
}

func (r *thriceFooled) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	fresh := &testv1.Widget{}
	if err := r.api.Get(ctx, req.NamespacedName, fresh); err != nil || fresh.Status.Phase != "" {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	stale := 0
	for range 3 {
		w := &testv1.Widget{}
		if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
			return ctrl.Result{}, err
		}
		if w.ResourceVersion != fresh.ResourceVersion {
			stale++
		}
	}
	n := fresh.Status.Counters["n"]
	if stale < 3 && n >= 2 {
		return ctrl.Result{}, nil
	}
	base := fresh.DeepCopy()
	if stale == 3 {
		fresh.Status.Phase = "fooled"
	} else {
		fresh.Status.Counters = map[string]int64{"n": n + 1}
	}
	return ctrl.Result{}, r.c.Status().Patch(ctx, fresh, client.MergeFrom(base))
}

func thriceFooledScenario() explore.Scenario {
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "fooled", For: &testv1.Widget{},
			New: func(c client.Client, api client.Reader) reconcile.Reconciler { return &thriceFooled{c: c, api: api} }}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Invariant: func(ctx context.Context, r client.Reader) error {
			w := &testv1.Widget{}
			if err := r.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "w"}, w); err != nil {
				if apierrors.IsNotFound(err) {
					return nil
				}
				return err
			}
			if w.Status.Phase == "fooled" {
				return errors.New("three stale reads in one reconcile")
			}
			return nil
		},
	}
}

// thriceFooledSchedules is what the search at the default bounds runs
// on thriceFooledScenario: with or without a Budget, without Deepen.
const thriceFooledSchedules = 16

// TestDeepenFindsWhatTheDefaultsMiss: the default bounds exhaust
// thriceFooledScenario without the bug, with or without a Budget, the
// same schedules either way; with Deepen the search goes on to level 1,
// whose 8 stale reads find it, and says so; the violation replays with
// its ReplayOptions.
func TestDeepenFindsWhatTheDefaultsMiss(t *testing.T) {
	scheme := widgetScheme(t)
	fake := explore.Fake(scheme, &testv1.Widget{})
	level0 := explore.Bounds{Depth: 4, Versions: 4, StaleReads: 2}
	for _, o := range []explore.Options{{Backend: fake}, {Backend: fake, Budget: searchBound}} {
		res, err := explore.Run(t.Context(), thriceFooledScenario(), o)
		if err != nil {
			t.Fatal(err)
		}
		if res.Violation != nil || !res.Exhausted || res.Bounds != level0 || res.Schedules != thriceFooledSchedules {
			t.Fatalf("budget %s, no Deepen: want %d schedules exhausted at %s without a violation, got %d (exhausted %t) at %s:\n%v",
				o.Budget, thriceFooledSchedules, level0, res.Schedules, res.Exhausted, res.Bounds, res.Violation)
		}
	}
	file := filepath.Join(t.TempDir(), "report.json")
	res, err := explore.Run(t.Context(), thriceFooledScenario(), explore.Options{Backend: fake, Deepen: true, Budget: searchBound, Report: file})
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || v.Invariant != explore.InvariantUser {
		t.Fatalf("Deepen: want the user invariant broken, got %d schedules at %s:\n%v", res.Schedules, res.Bounds, v)
	}
	want := explore.DeepeningLevel(1)
	if v.Bounds != want || res.Bounds != want || want != (explore.Bounds{Depth: 5, Versions: 5, StaleReads: 8, Level: 1}) {
		t.Fatalf("Deepen: found at %s, search at %s, want %s", v.Bounds, res.Bounds, want)
	}
	if v.Schedules <= thriceFooledSchedules || res.Schedules < v.Schedules {
		t.Fatalf("Deepen: found after %d schedules of %d, want after level 0's %d", v.Schedules, res.Schedules, thriceFooledSchedules)
	}
	if !strings.Contains(v.String(), "found at Depth 5, Versions 5, StaleReads 8 (deepening level 1)\n") {
		t.Fatalf("the violation does not say its bounds:\n%s", v)
	}
	rep, err := report.Read(file)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Ran != res.Schedules || len(rep.Violations) != 1 || rep.Violations[0].Bounds == nil ||
		*rep.Violations[0].Bounds != (report.Bounds{Depth: 5, Versions: 5, StaleReads: 8, Level: 1}) {
		t.Fatalf("report: ran %d of %d, violations %+v: want the level's bounds", rep.Ran, res.Schedules, rep.Violations)
	}
	ro := v.ReplayOptions()
	ro.Backend = fake
	again, err := explore.Run(t.Context(), thriceFooledScenario(), ro)
	if err != nil {
		t.Fatal(err)
	}
	if again.Violation == nil || again.Violation.Invariant != explore.InvariantUser || again.Violation.Seed != v.Seed {
		t.Fatalf("replay %q: want the same violation, got:\n%v", v.Seed, again.Violation)
	}
}

// TestDeepenKeepsTheBoundsSet: a bound the caller set is never raised.
// Depth 1 and StaleReads 2 each keep the bug out of reach at every level;
// raised, either would find it.
func TestDeepenKeepsTheBoundsSet(t *testing.T) {
	fake := explore.Fake(widgetScheme(t), &testv1.Widget{})
	for _, tc := range []struct {
		name string
		o    explore.Options
		kept func(explore.Bounds) bool
	}{
		{"Depth 1", explore.Options{Depth: 1}, func(b explore.Bounds) bool { return b.Depth == 1 && b.StaleReads > 2 }},
		{"StaleReads 2", explore.Options{StaleReads: 2}, func(b explore.Bounds) bool { return b.StaleReads == 2 && b.Depth > 4 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.o
			o.Backend, o.Deepen, o.Budget = fake, true, searchBound
			res, err := explore.Run(t.Context(), thriceFooledScenario(), o)
			if err != nil {
				t.Fatal(err)
			}
			if res.Violation != nil || !res.Exhausted || res.Bounds.Level < 1 || !tc.kept(res.Bounds) {
				t.Fatalf("want the other bounds deepened, this one kept, and no violation; got %d schedules (exhausted %t) at %s:\n%v",
					res.Schedules, res.Exhausted, res.Bounds, res.Violation)
			}
			t.Logf("%d schedules, ended at %s", res.Schedules, res.Bounds)
		})
	}
}

// TestDeepenParallelSameVerdict: two workers deepen as one does, to the
// same level, with the same verdict.
func TestDeepenParallelSameVerdict(t *testing.T) {
	scheme := widgetScheme(t)
	o := explore.Options{Backend: explore.Fake(scheme, &testv1.Widget{}), Parallel: 1, Deepen: true, Budget: searchBound}
	serial, err := explore.Run(t.Context(), thriceFooledScenario(), o)
	if err != nil {
		t.Fatal(err)
	}
	o.Backend, o.Parallel = explore.FakeWorlds(2, scheme, &testv1.Widget{}), 2
	par, err := explore.Run(t.Context(), thriceFooledScenario(), o)
	if err != nil {
		t.Fatal(err)
	}
	if par.Workers != 2 || serial.Violation == nil {
		t.Fatalf("workers %d, violation %v: want 2 and one", par.Workers, serial.Violation)
	}
	if a, b := verdict(serial), verdict(par); a != b || serial.Bounds != par.Bounds || serial.Violation.Bounds != par.Violation.Bounds {
		t.Fatalf("serial at %s:\n%s\nparallel at %s:\n%s", serial.Bounds, a, par.Bounds, b)
	}
}
