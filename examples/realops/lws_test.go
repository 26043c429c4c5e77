package realops

import (
	"context"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	lwsv1 "sigs.k8s.io/lws/api/leaderworkerset/v1"
	"sigs.k8s.io/lws/pkg/controllers"

	"github.com/statuspatch/statuspatch/testenv/explore"
)

func TestExploreLeaderWorkerSet(t *testing.T) {
	env := start(t, "sigs.k8s.io/lws", lwsv1.AddToScheme)
	explore.Check(t, explore.Scenario{
		Setup: func(mgr manager.Manager) error { // cmd/main.go's, without the webhooks and the cert manager
			if err := controllers.SetupIndexes(mgr.GetFieldIndexer()); err != nil {
				return err
			}
			if err := controllers.NewLeaderWorkerSetReconciler(mgr.GetClient(), mgr.GetScheme(),
				mgr.GetEventRecorderFor("leaderworkerset")).SetupWithManager(mgr); err != nil {
				return err
			}
			return controllers.NewPodReconciler(mgr.GetClient(), mgr.GetScheme(),
				mgr.GetEventRecorderFor("leaderworkerset"), nil).SetupWithManager(mgr)
		},
		Objects: []client.Object{&lwsv1.LeaderWorkerSet{
			ObjectMeta: metav1.ObjectMeta{Namespace: "lws", Name: "hello"},
			Spec: lwsv1.LeaderWorkerSetSpec{ // with what its defaulting webhook adds
				Replicas: ptr.To(int32(2)), StartupPolicy: lwsv1.LeaderCreatedStartupPolicy,
				LeaderWorkerTemplate: lwsv1.LeaderWorkerTemplate{Size: ptr.To(int32(2)),
					WorkerTemplate: podTemplate("worker"), RestartPolicy: lwsv1.RecreateGroupOnPodRestart},
				RolloutStrategy: lwsv1.RolloutStrategy{Type: lwsv1.RollingUpdateStrategyType,
					RollingUpdateConfiguration: &lwsv1.RollingUpdateConfiguration{
						MaxUnavailable: intstr.FromInt32(1), MaxSurge: intstr.FromInt32(0), Partition: ptr.To(int32(0))}},
				NetworkConfig: &lwsv1.NetworkConfig{SubdomainPolicy: ptr.To(lwsv1.SubdomainShared)},
			}}},
		Actions: []explore.Action{{Name: "new-image", Run: func(ctx context.Context, c client.Client) error {
			lws := &lwsv1.LeaderWorkerSet{}
			if err := c.Get(ctx, client.ObjectKey{Namespace: "lws", Name: "hello"}, lws); err != nil {
				return err
			}
			lws.Spec.LeaderWorkerTemplate.WorkerTemplate.Spec.Containers[0].Image = "rayproject/ray:2.47.0"
			return c.Update(ctx, lws)
		}}, {Name: "replace-sts", Run: func(ctx context.Context, c client.Client) error { // kubectl replace --force
			sts := &appsv1.StatefulSet{}
			if err := c.Get(ctx, client.ObjectKey{Namespace: "lws", Name: "hello"}, sts); err != nil {
				return client.IgnoreNotFound(err)
			}
			if err := c.Delete(ctx, sts); err != nil {
				return err
			}
			sts.ResourceVersion, sts.UID, sts.ManagedFields = "", "", nil
			return c.Create(ctx, sts)
		}}},
	}, explore.Options{Backend: explore.Server(env), Budget: time.Minute})
}
