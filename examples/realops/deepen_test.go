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

// deepenBudget is the budget of the searches below: the default bounds,
// deepened (Options.Deepen) while each level is exhausted within it. It
// bounds the search; the figures are in docs/explore-your-operator.md.
const deepenBudget = 10 * time.Minute

// TestRayHeadPodDeepening finds KubeRay's second head Pod
// (TestExploreRayCluster) with no bound chosen: the default bounds are
// exhausted without it, and the next level's stale reads find it.
func TestRayHeadPodDeepening(t *testing.T) {
	env := startRay(t)
	res, err := explore.Run(t.Context(), rayScenario(func(mgr manager.Manager) error { // as main.go
		return ray.NewReconciler(t.Context(), mgr, ray.RayClusterReconcilerOptions{}).SetupWithManager(mgr, 1)
	}), explore.Options{Backend: explore.Server(env), Deepen: true, Budget: deepenBudget})
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || !v.Broke(explore.InvariantErrorLoop) || !strings.Contains(v.String(), "2 head pods found") {
		t.Fatalf("want a second head Pod and the error loop it causes, got after %d schedules in %s at %s:\n%v",
			res.Schedules, res.Elapsed.Round(time.Second), res.Bounds, v)
	}
	t.Logf("found after %d schedules in %s at %s:\n%s", v.Schedules, v.FoundAfter.Round(time.Second), v.Bounds, v)
}

// TestRabbitmqResurrectDeepening finds the RabbitmqCluster that comes
// back after its deletion (TestExploreRabbitmqCluster) with no bound
// chosen.
func TestRabbitmqResurrectDeepening(t *testing.T) {
	env := start(t, "github.com/rabbitmq/cluster-operator/v2", rabbitmqv1beta1.AddToScheme)
	clientset, err := kubernetes.NewForConfig(env.Config)
	if err != nil {
		t.Fatal(err)
	}
	res, err := explore.Run(t.Context(), rabbitmqScenario(env, clientset),
		explore.Options{Backend: explore.Server(env), Deepen: true, Budget: deepenBudget})
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || !v.Broke(explore.InvariantDeletedStaysDeleted) || !strings.Contains(v.String(), "write create RabbitmqCluster rabbits/hello based on") {
		t.Fatalf("want the deleted RabbitmqCluster created again, got after %d schedules in %s at %s:\n%v",
			res.Schedules, res.Elapsed.Round(time.Second), res.Bounds, v)
	}
	t.Logf("found after %d schedules in %s at %s:\n%s", v.Schedules, v.FoundAfter.Round(time.Second), v.Bounds, v)
}
