package realops

import (
	"context"
	"strings"
	"testing"
	"time"

	rabbitmqv1beta1 "github.com/rabbitmq/cluster-operator/v2/api/v1beta1"
	"github.com/rabbitmq/cluster-operator/v2/controllers"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/statuspatch/statuspatch/testenv"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

func TestExploreRabbitmqCluster(t *testing.T) {
	env := start(t, "github.com/rabbitmq/cluster-operator/v2", rabbitmqv1beta1.AddToScheme)
	clientset, err := kubernetes.NewForConfig(env.Config)
	if err != nil {
		t.Fatal(err)
	}
	res, err := explore.Run(t.Context(), rabbitmqScenario(env, clientset),
		explore.Options{Backend: explore.Server(env), Versions: 2, StaleReads: 1, Budget: rabbitmqBound, StopAtFirst: true})
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation // the operator's bug: a deleted RabbitmqCluster comes back
	if v == nil || !v.Broke(explore.InvariantDeletedStaysDeleted) || !strings.Contains(v.String(), "write create RabbitmqCluster rabbits/hello based on") {
		t.Fatalf("want the deleted RabbitmqCluster created again, got after %d schedules:\n%v", res.Schedules, v)
	}
	t.Logf("found after %d schedules in %s:\n%s", v.Schedules, v.FoundAfter.Round(time.Second), v)
}

// rabbitmqBound is a bound, not a deadline: the search (depth-first at
// fixed bounds, in one order on every machine) stops at the bug, schedule
// 632, in about 3 minutes unloaded; a 3-minute Budget failed under load.
const rabbitmqBound = 20 * time.Minute

// rabbitmqScenario is a RabbitmqCluster, set up as main.go does, and two
// user actions, each at any point: a scale to 3 and a delete.
func rabbitmqScenario(env *testenv.Env, clientset *kubernetes.Clientset) explore.Scenario {
	return explore.Scenario{
		Setup: func(mgr manager.Manager) error { // as main.go
			return (&controllers.RabbitmqClusterReconciler{Client: mgr.GetClient(), APIReader: mgr.GetAPIReader(),
				Scheme: mgr.GetScheme(), Recorder: mgr.GetEventRecorderFor("rabbitmqcluster-controller"),
				Namespace: "rabbitmq-system", ClusterConfig: env.Config, Clientset: clientset,
				PodExecutor:             controllers.NewPodExecutor(),
				DefaultRabbitmqImage:    "rabbitmq:4.1.1-management",
				DefaultUserUpdaterImage: "rabbitmqoperator/default-user-credential-updater:1.0.2"}).SetupWithManager(mgr)
		},
		Objects: []client.Object{&rabbitmqv1beta1.RabbitmqCluster{
			ObjectMeta: metav1.ObjectMeta{Namespace: "rabbits", Name: "hello"}}},
		Actions: []explore.Action{{Name: "scale-to-3", Run: func(ctx context.Context, c client.Client) error {
			rmq := &rabbitmqv1beta1.RabbitmqCluster{}
			if err := c.Get(ctx, client.ObjectKey{Namespace: "rabbits", Name: "hello"}, rmq); err != nil {
				return err
			}
			rmq.Spec.Replicas = ptr.To(int32(3))
			return c.Update(ctx, rmq)
		}}, {Name: "delete", Run: func(ctx context.Context, c client.Client) error {
			return c.Delete(ctx, &rabbitmqv1beta1.RabbitmqCluster{ObjectMeta: metav1.ObjectMeta{Namespace: "rabbits", Name: "hello"}})
		}}},
	}
}
