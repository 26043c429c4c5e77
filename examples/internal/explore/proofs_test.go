package explore_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/statuspatch/statuspatch/testenv/explore"

	demov1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
	"github.com/statuspatch/statuspatch/examples/internal/controller/blind"
	"github.com/statuspatch/statuspatch/examples/internal/explore/buggy"
)

const ns = "explore"

func rollout(name, fleet string) *demov1.Rollout {
	return &demov1.Rollout{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: demov1.RolloutSpec{Version: "v1", Steps: 1, Fleet: fleet}}
}

// counter returns deterministic IDs, so that every schedule writes the same.
func counter(prefix string) func() string {
	n := 0
	return func() string { n++; return fmt.Sprintf("%s%d", prefix, n) }
}

// searchBound is the Budget of a search that must find its violation.
const searchBound = 10 * time.Minute

// mustFind runs s and returns the violation; the test fails without one,
// or when it has a different invariant or more chosen steps than maxChosen.
// Callers give a Budget of minutes: a bound, not a deadline (the search
// stops at its first violation); a budget of seconds let a loaded machine's
// clock decide the test.
func mustFind(t *testing.T, s explore.Scenario, o explore.Options, invariant string, maxChosen int) *explore.Violation {
	t.Helper()
	res, err := explore.Run(ctx, s, o)
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil {
		t.Fatalf("explore missed the bug: no violation in %d schedules (%s)", res.Schedules, res.Elapsed)
	}
	t.Logf("found after %d schedules in %s (%.0f schedules/s):\n%s", v.Schedules, v.FoundAfter.Round(time.Millisecond),
		float64(res.Schedules)/res.Elapsed.Seconds(), v)
	if v.Invariant != invariant || v.Chosen() > maxChosen {
		t.Fatalf("want %q in at most %d chosen steps, got %q in %d", invariant, maxChosen, v.Invariant, v.Chosen())
	}
	return v
}

func blindScenario() explore.Scenario {
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "rollout", For: &demov1.Rollout{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler {
				return &blind.RolloutReconciler{Client: c, Mode: blind.ModeMergeFrom, NewPlanID: counter("plan-")}
			}}},
		Objects: []client.Object{rollout("demo", "")},
	}
}

// TestBlindMergeFromLosesPlan: the second of two reconciles reads the
// rollout from a cache without the first one's plan, builds another and
// overwrites it. The seed replays the same schedule.
func TestBlindMergeFromLosesPlan(t *testing.T) {
	o := explore.Options{Backend: explore.Server(shared), Budget: searchBound, StopAtFirst: true}
	v := mustFind(t, blindScenario(), o, explore.InvariantLostWrite, 2)
	if !strings.Contains(v.Message, "status.plan") {
		t.Errorf("want the plan in the lost write, got %s", v.Message)
	}
	again, err := explore.Run(ctx, blindScenario(), explore.Options{Backend: explore.Server(shared), Replay: v.Seed})
	if err != nil {
		t.Fatal(err)
	}
	if again.Violation == nil || again.Violation.Seed != v.Seed || steps(again.Violation) != steps(v) {
		t.Fatalf("replay of %q differs:\n%v\nwant:\n%s", v.Seed, again.Violation, steps(v))
	}
}

// TestBlindMergeFromLosesPlanFake: the same on the fake client.
func TestBlindMergeFromLosesPlanFake(t *testing.T) {
	o := explore.Options{Backend: explore.Fake(scheme, &demov1.Rollout{}, &demov1.Fleet{}), Budget: searchBound, StopAtFirst: true}
	mustFind(t, blindScenario(), o, explore.InvariantLostWrite, 2)
}

// clockAndVersions are what a replay legitimately changes in patch bodies.
var clockAndVersions = regexp.MustCompile(`"(lastTransitionTime|resourceVersion)":"[^"]*"`)

// steps is v's schedule without timestamps and resourceVersions.
func steps(v *explore.Violation) string {
	var b strings.Builder
	for _, s := range v.Steps {
		b.WriteString(s.String())
	}
	return clockAndVersions.ReplaceAllString(b.String(), `"$1":"..."`)
}

// TestFluxStyleObservedGenerationStuck: a user changes the spec; the
// helper writes the Ready condition of the new generation, then, in a
// second write, observedGeneration: a crash between the two (or, with a
// standby manager's lagging cache, a blind write of the old generation's
// after them) leaves observedGeneration below generation, and the Ready
// condition makes every later reconcile skip it. The seed replays it.
func TestFluxStyleObservedGenerationStuck(t *testing.T) {
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "flux", For: &demov1.Rollout{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler {
				return &buggy.FluxStyleReconciler{Client: c}
			}}},
		Objects: []client.Object{rollout("app", "")},
		Actions: []explore.Action{{Name: "bump-version", Run: func(ctx context.Context, c client.Client) error {
			ro := &demov1.Rollout{}
			if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: "app"}, ro); err != nil {
				return err
			}
			ro.Spec.Version = "v2"
			return c.Update(ctx, ro)
		}}},
	}
	// One manager's cache never goes backwards: the stale read after the
	// Ready write of the new generation would be a standby manager's. The
	// shorter schedule comes first: a crash between the helper's two
	// writes leaves the Ready condition of the new generation and no
	// observedGeneration, which no later reconcile fixes.
	o := explore.Options{Backend: explore.Server(shared), Budget: searchBound, StopAtFirst: true, Crashes: 1, LeaderChange: true}
	v := mustFind(t, s, o, explore.InvariantObservedGenerationStuck, 3)
	res, err := explore.Run(ctx, s, explore.Options{Backend: explore.Server(shared), Replay: v.Seed})
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation == nil || !res.Violation.Broke(explore.InvariantObservedGenerationStuck) {
		t.Fatalf("replay of %q: want observedGeneration stuck, got:\n%v", v.Seed, res.Violation)
	}
}

// TestCanaryActsOnItsOwnStaleWrite: the second reconcile reads the Fleet
// from a cache without the first one's status write and creates a second
// canary; its own status write conflicts, but the canary is there.
func TestCanaryActsOnItsOwnStaleWrite(t *testing.T) {
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "canary", For: &demov1.Fleet{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler {
				return &buggy.CanaryReconciler{Client: c, Namespace: ns, NewID: counter("")}
			}}},
		Objects:   []client.Object{&demov1.Fleet{ObjectMeta: metav1.ObjectMeta{Name: "fleet-a"}}},
		Invariant: oneCanary,
	}
	o := explore.Options{Backend: explore.Server(shared), Budget: searchBound, StopAtFirst: true}
	mustFind(t, s, o, explore.InvariantUser, 2)
}

func oneCanary(ctx context.Context, r client.Reader) error {
	var list demov1.RolloutList
	if err := r.List(ctx, &list, client.InNamespace(ns)); err != nil {
		return err
	}
	n := 0
	for _, ro := range list.Items {
		if ro.Spec.Fleet == "fleet-a" {
			n++
		}
	}
	if n != 1 {
		return fmt.Errorf("fleet-a has %d canary rollouts, want 1", n)
	}
	return nil
}
