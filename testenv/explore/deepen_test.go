package explore_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
	"github.com/statuspatch/statuspatch/testenv/explore/report"
)

// thriceFooled counts its Widget's reconciles in status.counters["n"],
// twice, and reads the Widget three times from the cache in each, through
// each of its informers (typed, metadata-only, unstructured): if all
// three are older than the server's newest it writes status.phase
// "fooled". A bug only three stale windows in one reconcile show (one
// per informer): the default bounds (2 per schedule) cannot.
type thriceFooled struct {
	c   client.Client
	api client.Reader
	// reads, if set, is what the three reads go through instead of c.
	reads client.Reader
}

func (r *thriceFooled) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	fresh := &testv1.Widget{}
	if err := r.api.Get(ctx, req.NamespacedName, fresh); err != nil || fresh.Status.Phase != "" {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	stale := 0
	var reads client.Reader = r.c
	if r.reads != nil {
		reads = r.reads
	}
	gvk := testv1.GroupVersion.WithKind("Widget")
	meta := &metav1.PartialObjectMetadata{}
	meta.SetGroupVersionKind(gvk)
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gvk)
	for _, w := range []client.Object{&testv1.Widget{}, meta, u} {
		if err := reads.Get(ctx, req.NamespacedName, w); err != nil {
			return ctrl.Result{}, err
		}
		if w.GetResourceVersion() != fresh.ResourceVersion {
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
		// Its manager caches unstructured objects: a third informer.
		Manager: &manager.Options{Client: client.Options{Cache: &client.CacheOptions{Unstructured: true}}},
		Invariant: func(ctx context.Context, r client.Reader) error {
			w := &testv1.Widget{}
			if err := r.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "w"}, w); err != nil {
				if apierrors.IsNotFound(err) {
					return nil
				}
				return err
			}
			if w.Status.Phase == "fooled" {
				return errors.New("three stale windows in one reconcile")
			}
			return nil
		},
	}
}

// thriceFooledSchedules is what the search at the default bounds runs
// on thriceFooledScenario, at one level.
const thriceFooledSchedules = 58

// level0 are the default bounds, as a deepening search's level 0;
// fixed0, as a search that does not deepen.
var (
	level0 = explore.Bounds{Depth: 4, Versions: 4, StaleReads: 2}
	fixed0 = explore.Bounds{Depth: 4, Versions: 4, StaleReads: 2, Fixed: true}
)

// TestDeepenFindsWhatTheDefaultsMiss: the default bounds exhaust
// thriceFooledScenario without the bug (without a Budget the search runs
// at them only); given a Budget and nothing else, the search deepens by
// default, goes on to level 1, whose 8 stale reads find it, and says so;
// the violation replays with its ReplayOptions.
func TestDeepenFindsWhatTheDefaultsMiss(t *testing.T) {
	scheme := widgetScheme(t)
	fake := explore.Fake(scheme, &testv1.Widget{})
	res, err := explore.Run(t.Context(), thriceFooledScenario(), explore.Options{Backend: fake})
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted || res.Bounds != fixed0 || res.Schedules != thriceFooledSchedules {
		t.Fatalf("no Budget: want %d schedules exhausted at %s without a violation, got %d (exhausted %t) at %s:\n%v",
			thriceFooledSchedules, fixed0, res.Schedules, res.Exhausted, res.Bounds, res.Violation)
	}
	file := filepath.Join(t.TempDir(), "report.json")
	res, err = explore.Run(t.Context(), thriceFooledScenario(), explore.Options{Backend: fake, Budget: searchBound, StopAtFirst: true, Report: file})
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || v.Invariant != explore.InvariantUser {
		t.Fatalf("Budget only: want the user invariant broken, got %d schedules at %s:\n%v", res.Schedules, res.Bounds, v)
	}
	want := explore.DeepeningLevel(1)
	if v.Bounds != want || res.Bounds != want || want != (explore.Bounds{Depth: 5, Versions: 5, StaleReads: 8, Level: 1}) {
		t.Fatalf("Budget only: found at %s, search at %s, want %s", v.Bounds, res.Bounds, want)
	}
	if v.Schedules <= thriceFooledSchedules || res.Schedules < v.Schedules {
		t.Fatalf("Budget only: found after %d schedules of %d, want after level 0's %d", v.Schedules, res.Schedules, thriceFooledSchedules)
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

// TestFixedBoundsKeepsOneLevel: the opt-out. With FixedBounds, or with
// a bound set (StaleReads 2, the default's value), a search given a long
// Budget runs the default bounds' 58 schedules, at level 0, and ends
// exhausted without the bug that level 1 finds; Deepen with FixedBounds
// is an error.
func TestFixedBoundsKeepsOneLevel(t *testing.T) {
	fake := explore.Fake(widgetScheme(t), &testv1.Widget{})
	for _, tc := range []struct {
		name string
		o    explore.Options
	}{
		{"FixedBounds", explore.Options{Backend: fake, Budget: searchBound, StopAtFirst: true, FixedBounds: true}},
		{"FixedBounds, parallel", explore.Options{Backend: explore.FakeWorlds(2, widgetScheme(t), &testv1.Widget{}), Parallel: 2, Budget: searchBound, StopAtFirst: true, FixedBounds: true}},
		{"StaleReads 2", explore.Options{Backend: fake, Budget: searchBound, StopAtFirst: true, StaleReads: 2}},
	} {
		res, err := explore.Run(t.Context(), thriceFooledScenario(), tc.o)
		if err != nil {
			t.Fatal(err)
		}
		if res.Violation != nil || !res.Exhausted || res.Bounds != fixed0 || res.Schedules != thriceFooledSchedules {
			t.Fatalf("%s: want %d schedules exhausted at %s without a violation, got %d (exhausted %t) at %s:\n%v",
				tc.name, thriceFooledSchedules, fixed0, res.Schedules, res.Exhausted, res.Bounds, res.Violation)
		}
	}
	_, err := explore.Run(t.Context(), thriceFooledScenario(), explore.Options{Backend: fake, Budget: searchBound, StopAtFirst: true, FixedBounds: true, Deepen: true})
	if err == nil || !strings.Contains(err.Error(), "FixedBounds") {
		t.Fatalf("Deepen and FixedBounds: got error %v, want one naming both", err)
	}
}

// TestDeepenKeepsTheBoundsSet: with Deepen, a search that sets a bound
// deepens the others, and the bound set is never raised. At Depth 2 the
// default's 2 stale reads cut the reconcile's third, so the search goes
// on to level 1, which finds the bug at Depth 2 still. StaleReads 2 and
// Depth 1 each keep the bug out of reach; no bound that deepens cuts a
// schedule short there (the reconciler stops writing within 4 steps,
// the Widget has no more than 4 versions, and at Depth 1 it has one), so
// deeper bounds would run the same schedules, and the search ends at
// level 0, exhausted.
func TestDeepenKeepsTheBoundsSet(t *testing.T) {
	fake := explore.Fake(widgetScheme(t), &testv1.Widget{})
	for _, tc := range []struct {
		name  string
		o     explore.Options
		found bool
		want  explore.Bounds
	}{
		{"Depth 2", explore.Options{Depth: 2}, true, explore.Bounds{Depth: 2, Versions: 5, StaleReads: 8, Level: 1}},
		{"StaleReads 2", explore.Options{StaleReads: 2}, false, level0},
		{"Depth 1", explore.Options{Depth: 1}, false, explore.Bounds{Depth: 1, Versions: 4, StaleReads: 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.o
			o.Backend, o.Deepen, o.Budget, o.StopAtFirst = fake, true, searchBound, true
			res, err := explore.Run(t.Context(), thriceFooledScenario(), o)
			if err != nil {
				t.Fatal(err)
			}
			v := res.Violation
			if (v != nil) != tc.found || res.Bounds != tc.want || (v != nil && v.Bounds != tc.want) || (v == nil && !res.Exhausted) {
				t.Fatalf("want violation %t at %s; got %d schedules (exhausted %t) at %s:\n%v",
					tc.found, tc.want, res.Schedules, res.Exhausted, res.Bounds, v)
			}
			t.Logf("%d schedules, ended at %s", res.Schedules, res.Bounds)
		})
	}
}

// TestDeepenStopsWhereNoBoundCuts: the same reconciler reading the
// Widget through the API reader, never the cache, has nothing a deeper
// bound would offer (no cached read, and its queue is empty within 4
// steps). A search given a Budget and nothing else runs the same
// schedules as FixedBounds, at level 0, and ends exhausted, not at the
// end of its Budget.
func TestDeepenStopsWhereNoBoundCuts(t *testing.T) {
	fake := explore.Fake(widgetScheme(t), &testv1.Widget{})
	s := thriceFooledScenario()
	s.Reconcilers[0].New = func(c client.Client, api client.Reader) reconcile.Reconciler {
		return &thriceFooled{c: c, api: api, reads: api}
	}
	fixed, err := explore.Run(t.Context(), s, explore.Options{Backend: fake, Budget: searchBound, StopAtFirst: true, FixedBounds: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []explore.Options{
		{Backend: fake, Budget: searchBound, StopAtFirst: true},
		{Backend: explore.FakeWorlds(2, widgetScheme(t), &testv1.Widget{}), Parallel: 2, Budget: searchBound, StopAtFirst: true},
	} {
		res, err := explore.Run(t.Context(), s, o)
		if err != nil {
			t.Fatal(err)
		}
		if res.Violation != nil || !res.Exhausted || res.Bounds != level0 || res.Schedules != fixed.Schedules || res.Elapsed > time.Minute {
			t.Fatalf("%d workers: want the %d schedules of FixedBounds, exhausted at %s, got %d (exhausted %t) at %s in %s:\n%v",
				res.Workers, fixed.Schedules, level0, res.Schedules, res.Exhausted, res.Bounds, res.Elapsed, res.Violation)
		}
	}
}

// TestDeepenParallelSameVerdict: two workers deepen as one does, to the
// same level, with the same verdict (the default: a Budget, no bound).
func TestDeepenParallelSameVerdict(t *testing.T) {
	scheme := widgetScheme(t)
	o := explore.Options{Backend: explore.Fake(scheme, &testv1.Widget{}), Parallel: 1, Budget: searchBound, StopAtFirst: true}
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
