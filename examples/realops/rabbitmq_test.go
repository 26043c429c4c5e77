package realops

import (
	"testing"

	rabbitmqv1beta1 "github.com/rabbitmq/cluster-operator/v2/api/v1beta1"
	"github.com/rabbitmq/cluster-operator/v2/controllers"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/record"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/statuspatch/statuspatch/testenv/explore"
)

func TestExploreRabbitmqCluster(t *testing.T) {
	env := start(t, "github.com/rabbitmq/cluster-operator/v2", rabbitmqv1beta1.AddToScheme)
	clientset := kubernetes.NewForConfigOrDie(env.Config)
	explore.Check(t, explore.Scenario{
		Reconcilers: []explore.Reconciler{{
			Name: "rabbitmq", For: &rabbitmqv1beta1.RabbitmqCluster{},
			Owns: []client.Object{&appsv1.StatefulSet{}, &corev1.ConfigMap{}, &corev1.Service{}, &rbacv1.Role{},
				&rbacv1.RoleBinding{}, &corev1.ServiceAccount{}, &corev1.Secret{}},
			New: func(c client.Client, api client.Reader) reconcile.Reconciler { // as main.go builds it
				return &controllers.RabbitmqClusterReconciler{Client: c, APIReader: api, Scheme: env.Scheme,
					Recorder: &record.FakeRecorder{}, Namespace: "rabbitmq-system", ClusterConfig: env.Config,
					Clientset: clientset, PodExecutor: controllers.NewPodExecutor(),
					DefaultRabbitmqImage:    "rabbitmq:4.1.1-management",
					DefaultUserUpdaterImage: "rabbitmqoperator/default-user-credential-updater:1.0.2"}
			},
		}},
		Objects: []client.Object{&rabbitmqv1beta1.RabbitmqCluster{
			ObjectMeta: metav1.ObjectMeta{Namespace: "rabbits", Name: "hello"}}},
	}, explore.Options{Backend: explore.Server(env)})
}
