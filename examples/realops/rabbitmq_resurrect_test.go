package realops

import (
	"context"
	"testing"

	rabbitmqv1beta1 "github.com/rabbitmq/cluster-operator/v2/api/v1beta1"
	"github.com/rabbitmq/cluster-operator/v2/controllers"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/record"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// TestRabbitmqRecreatesDeletedCluster plays the schedule
// TestExploreRabbitmqCluster finds (docs/explore-your-operator.md) directly
// on the server, without the explorer: after the reconcile that removed the
// finalizer of a deleted RabbitmqCluster (so the server deleted it), a
// reconcile whose first read still sees the deleting version, and whose next
// read sees it gone, creates a new RabbitmqCluster of the same name:
// removeFinalizer uses controllerutil.CreateOrUpdate, which creates what it
// does not find. On the real server, with the operator at the pinned version.
func TestRabbitmqRecreatesDeletedCluster(t *testing.T) {
	env := start(t, "github.com/rabbitmq/cluster-operator/v2", rabbitmqv1beta1.AddToScheme)
	ctx, key := t.Context(), client.ObjectKey{Namespace: "rabbits", Name: "gone"}
	clientset, err := kubernetes.NewForConfig(env.Config)
	if err != nil {
		t.Fatal(err)
	}
	reconciler := func(c client.Client) *controllers.RabbitmqClusterReconciler {
		return &controllers.RabbitmqClusterReconciler{Client: c, APIReader: env.Client, Scheme: env.Scheme,
			Recorder: &record.FakeRecorder{}, Namespace: "rabbitmq-system", ClusterConfig: env.Config,
			Clientset: clientset, PodExecutor: controllers.NewPodExecutor(),
			DefaultRabbitmqImage:    "rabbitmq:4.1.1-management",
			DefaultUserUpdaterImage: "rabbitmqoperator/default-user-credential-updater:1.0.2"}
	}
	reconcileOnce := func(c client.Client) {
		t.Helper()
		if _, err := reconciler(c).Reconcile(ctx, reconcile.Request{NamespacedName: key}); err != nil {
			t.Fatalf("reconcile RabbitmqCluster %s: %v", key, err)
		}
	}
	first := &rabbitmqv1beta1.RabbitmqCluster{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}}
	if err := env.Client.Create(ctx, first); err != nil {
		t.Fatal(err)
	}
	reconcileOnce(env.Client) // adds the finalizer, creates the children
	if err := env.Client.Delete(ctx, first); err != nil {
		t.Fatal(err)
	}
	deleting := &rabbitmqv1beta1.RabbitmqCluster{}
	if err := env.Client.Get(ctx, key, deleting); err != nil || deleting.DeletionTimestamp == nil {
		t.Fatalf("RabbitmqCluster %s after the delete: %v, deletionTimestamp %v", key, err, deleting.DeletionTimestamp)
	}
	reconcileOnce(env.Client) // removes the finalizer: the server deletes it
	if err := env.Client.Get(ctx, key, &rabbitmqv1beta1.RabbitmqCluster{}); !apierrors.IsNotFound(err) {
		t.Fatalf("RabbitmqCluster %s after its finalizer's removal: %v, want NotFound", key, err)
	}

	// The next reconcile: its cache has not seen the deletion at the first
	// read, and has at the second.
	reconcileOnce(&staleOnce{Client: env.Client, stale: deleting})

	back := &rabbitmqv1beta1.RabbitmqCluster{}
	if err := env.Client.Get(ctx, key, back); err != nil {
		t.Fatalf("RabbitmqCluster %s stayed deleted (%v): the operator no longer recreates it; update examples/realops/README.md", key, err)
	}
	if back.UID == first.UID {
		t.Fatalf("RabbitmqCluster %s has its old uid %s", key, back.UID)
	}
	t.Logf("the user deleted RabbitmqCluster %s (uid %s); a reconcile that read it once from a lagging cache created it again (uid %s)", key, first.UID, back.UID)
}

// staleOnce answers the first Get of stale's object with stale, as an
// informer that has not yet seen the deletion would, and reads the server
// after that.
type staleOnce struct {
	client.Client
	stale client.Object
	done  bool
}

func (c *staleOnce) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	if r, ok := obj.(*rabbitmqv1beta1.RabbitmqCluster); ok && !c.done && key == client.ObjectKeyFromObject(c.stale) {
		c.done = true
		c.stale.(*rabbitmqv1beta1.RabbitmqCluster).DeepCopyInto(r)
		return nil
	}
	return c.Client.Get(ctx, key, obj, opts...)
}
