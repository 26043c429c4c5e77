package realops

import (
	"strings"
	"testing"
	"time"

	rabbitmqv1beta1 "github.com/rabbitmq/cluster-operator/v2/api/v1beta1"
	"github.com/ray-project/kuberay/ray-operator/controllers/ray"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/statuspatch/statuspatch/testenv/explore"
)

// deepenBudget is the budget of the searches below, the one a user
// should give: their only option but the Backend. Given a Budget and no
// bound, a search deepens the default bounds while each level is
// exhausted within it (docs/explore-design.md, How it searches), within
// the first 3/5 of it; then, if it ended with space left, the fault
// phase's random schedules with a crash or a leader change take the
// rest. The figures are in examples/realops/README.md (Time). JobSet's
// deletes by name (TestJobSetDeletesByNameReplay), which need a leader
// change and bounds past deepening level 4, are the fault phase's
// (TestJobSetByNameDeepening).
const deepenBudget = 10 * time.Minute

// TestRayHeadPodDeepening finds KubeRay's second head Pod
// (TestExploreRayCluster) with the default options and a budget: the
// default bounds are exhausted without it, and the next level's stale
// reads find it.
func TestRayHeadPodDeepening(t *testing.T) {
	env := startRay(t)
	res, err := explore.Run(t.Context(), rayScenario(func(mgr manager.Manager) error { // as main.go
		return ray.NewReconciler(t.Context(), mgr, ray.RayClusterReconcilerOptions{}).SetupWithManager(mgr, 1)
	}), explore.Options{Backend: explore.Server(env), Budget: deepenBudget})
	if err != nil {
		t.Fatal(err)
	}
	logRanked(t, res)
	v := res.Violation
	if v == nil || !v.Broke(explore.InvariantErrorLoop) || !strings.Contains(v.String(), "2 head pods found") {
		t.Fatalf("want a second head Pod and the error loop it causes, got after %d schedules in %s at %s:\n%v",
			res.Schedules, res.Elapsed.Round(time.Second), res.Bounds, v)
	}
	t.Logf("found after %d schedules in %s at %s:\n%s", v.Schedules, v.FoundAfter.Round(time.Second), v.Bounds, v)
}

// TestRabbitmqResurrectDeepening finds the RabbitmqCluster that comes
// back after its deletion (TestExploreRabbitmqCluster) with the default
// options and a budget.
func TestRabbitmqResurrectDeepening(t *testing.T) {
	env := start(t, "github.com/rabbitmq/cluster-operator/v2", rabbitmqv1beta1.AddToScheme)
	clientset, err := kubernetes.NewForConfig(env.Config)
	if err != nil {
		t.Fatal(err)
	}
	res, err := explore.Run(t.Context(), rabbitmqScenario(env, clientset),
		explore.Options{Backend: explore.Server(env), Budget: deepenBudget})
	if err != nil {
		t.Fatal(err)
	}
	logRanked(t, res)
	v := res.Violation
	if v == nil || !v.Broke(explore.InvariantDeletedStaysDeleted) || !strings.Contains(v.String(), "write create RabbitmqCluster rabbits/hello based on") {
		t.Fatalf("want the deleted RabbitmqCluster created again, got after %d schedules in %s at %s:\n%v",
			res.Schedules, res.Elapsed.Round(time.Second), res.Bounds, v)
	}
	t.Logf("found after %d schedules in %s at %s:\n%s", v.Schedules, v.FoundAfter.Round(time.Second), v.Bounds, v)
}

// TestGrafanaVersionDeepening finds grafana-operator's default version
// written over the user's (TestExploreGrafana, TestGrafanaOverwritesPinnedVersion)
// with the default options and a budget: no crash is needed, only a
// cached read that has not seen the user's pin.
func TestGrafanaVersionDeepening(t *testing.T) {
	env := startGrafana(t)
	res, err := explore.Run(t.Context(), grafanaScenario(""), explore.Options{Backend: explore.Server(env), Budget: deepenBudget})
	if err != nil {
		t.Fatal(err)
	}
	logRanked(t, res)
	v := res.Violation
	if v == nil || !v.Broke(explore.InvariantLostWrite) || !strings.Contains(v.String(), `{"spec":{"version":"12.1.0"}}`) {
		t.Fatalf("want the user's spec.version overwritten by the operator's default, got after %d schedules in %s at %s:\n%v",
			res.Schedules, res.Elapsed.Round(time.Second), res.Bounds, v)
	}
	t.Logf("found after %d schedules in %s at %s:\n%s", v.Schedules, v.FoundAfter.Round(time.Second), v.Bounds, v)
}

// TestJobSetByNameDeepening finds JobSet's deletes by name across a
// leader change (TestJobSetDeletesByNameReplay) with the default options
// and a budget, in the scenario of the replay (the Job controller's
// failure the only action). The depth-first search does not reach it: it
// needs a leader change, the replay's eight chosen steps (the action
// among them) and a List seven points behind. The fault phase that follows the deepening within the budget
// does: random schedules with a crash or a leader change and a stale
// read after it (docs/explore-design.md, How it searches).
func TestJobSetByNameDeepening(t *testing.T) {
	env := startJobSet(t)
	s := jobsetScenario(env)
	s.Actions = s.Actions[:1] // fail-job
	res, err := explore.Run(t.Context(), s, explore.Options{Backend: explore.Server(env), Budget: deepenBudget})
	if err != nil {
		t.Fatal(err)
	}
	logRanked(t, res)
	v := res.Violation
	if v == nil || !v.Broke(explore.InvariantOwnDelete) || !strings.Contains(v.String(), "Job jobs/hello-workers-") {
		t.Fatalf("want the new leader's delete of an attempt-1 Job, got after %d schedules in %s at %s:\n%v",
			res.Schedules, res.Elapsed.Round(time.Second), res.Bounds, v)
	}
	t.Logf("found after %d schedules in %s at %s:\n%s", v.Schedules, v.FoundAfter.Round(time.Second), v.Bounds, v)
	ro := v.ReplayOptions()
	ro.Backend = explore.Server(env)
	again, err := explore.Run(t.Context(), s, ro)
	if err != nil {
		t.Fatal(err)
	}
	if again.Violation == nil || !again.Violation.Broke(explore.InvariantOwnDelete) || again.Violation.Seed != v.Seed {
		t.Fatalf("replay %q: want the same violation, got:\n%v", v.Seed, again.Violation)
	}
}
