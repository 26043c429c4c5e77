package realops

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	rabbitmqv1beta1 "github.com/rabbitmq/cluster-operator/v2/api/v1beta1"
	"github.com/rabbitmq/cluster-operator/v2/controllers"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/record"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/statuspatch/statuspatch/testenv/explore"
)

func TestExploreRabbitmqCluster(t *testing.T) {
	env := start(t, "github.com/rabbitmq/cluster-operator/v2", rabbitmqv1beta1.AddToScheme)
	clientset, err := kubernetes.NewForConfig(env.Config)
	if err != nil {
		t.Fatal(err)
	}
	var events chan string // the schedule's events
	var deleted bool       // the user deleted the RabbitmqCluster in this schedule
	res, err := explore.Run(t.Context(), explore.Scenario{
		Reconcilers: []explore.Reconciler{{
			Name: "rabbitmq", For: &rabbitmqv1beta1.RabbitmqCluster{},
			Owns: []client.Object{&appsv1.StatefulSet{}, &corev1.ConfigMap{}, &corev1.Service{}, &rbacv1.Role{},
				&rbacv1.RoleBinding{}, &corev1.ServiceAccount{}, &corev1.Secret{}},
			New: func(c client.Client, api client.Reader) reconcile.Reconciler { // as main.go builds it
				events, deleted = make(chan string, 1000), false
				return &controllers.RabbitmqClusterReconciler{Client: c, APIReader: api, Scheme: env.Scheme,
					Recorder: &record.FakeRecorder{Events: events}, Namespace: "rabbitmq-system", ClusterConfig: env.Config,
					Clientset: clientset, PodExecutor: controllers.NewPodExecutor(),
					DefaultRabbitmqImage:    "rabbitmq:4.1.1-management",
					DefaultUserUpdaterImage: "rabbitmqoperator/default-user-credential-updater:1.0.2"}
			},
		}},
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
			deleted = true
			return c.Delete(ctx, &rabbitmqv1beta1.RabbitmqCluster{ObjectMeta: metav1.ObjectMeta{Namespace: "rabbits", Name: "hello"}})
		}}},
		Invariant: func(ctx context.Context, r client.Reader) error { // the StatefulSet runs the replicas asked for
			for len(events) > 0 {
				if e := <-events; strings.Contains(e, "UnsupportedOperation") {
					return fmt.Errorf("the user only scaled up, and the operator says: %s", e)
				}
			}
			rmq, sts := &rabbitmqv1beta1.RabbitmqCluster{}, &appsv1.StatefulSet{}
			if err := r.Get(ctx, client.ObjectKey{Namespace: "rabbits", Name: "hello"}, rmq); deleted && err == nil {
				return fmt.Errorf("the user deleted RabbitmqCluster rabbits/hello, and it was created again (uid %s)", rmq.UID)
			} else if deleted && apierrors.IsNotFound(err) {
				return nil
			}
			if err := errors.Join(r.Get(ctx, client.ObjectKey{Namespace: "rabbits", Name: "hello"}, rmq),
				r.Get(ctx, client.ObjectKey{Namespace: "rabbits", Name: "hello-server"}, sts)); err != nil {
				return err
			}
			if *sts.Spec.Replicas != *rmq.Spec.Replicas {
				return fmt.Errorf("StatefulSet rabbits/hello-server has %d replicas, the RabbitmqCluster asks for %d", *sts.Spec.Replicas, *rmq.Spec.Replicas)
			}
			return nil
		},
	}, explore.Options{Backend: explore.Server(env), Versions: 2, StaleReads: 1, Budget: 3 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation // the operator's bug: a deleted RabbitmqCluster comes back
	if v == nil || !v.Broke(explore.InvariantUser) || !strings.Contains(v.String(), "RabbitmqCluster rabbits/hello, and it was created again") ||
		!strings.Contains(v.String(), "write create RabbitmqCluster rabbits/hello based on") {
		t.Fatalf("want the deleted RabbitmqCluster created again, got after %d schedules:\n%v", res.Schedules, v)
	}
	t.Logf("found after %d schedules in %s:\n%s", v.Schedules, v.FoundAfter.Round(time.Second), v)
}
