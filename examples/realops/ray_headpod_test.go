package realops

import (
	"context"
	"strings"
	"testing"

	rayv1 "github.com/ray-project/kuberay/ray-operator/apis/ray/v1"
	"github.com/ray-project/kuberay/ray-operator/controllers/ray"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/record"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// TestRayDuplicateHeadPod plays, on the real server and without the
// explorer, the race KubeRay's head Pod has (docs/explore-your-operator.md):
// reconcilePods lists the head Pods first and checks its scale
// expectations after. A reconcile whose List comes from an informer that
// has not yet seen the head Pod the previous reconcile created, and whose
// expectation Get, a moment later, comes from one that has, finds the
// expectation met and no head Pod, and creates a second; every reconcile
// after that fails with "2 head pods found". The same reconciler (its
// expectations are in memory) runs all three reconciles, as in one
// operator process.
func TestRayDuplicateHeadPod(t *testing.T) {
	env := startRay(t)
	ctx, key := t.Context(), client.ObjectKey{Namespace: "ray", Name: "twice"}
	rc := &rayv1.RayCluster{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name},
		Spec: rayv1.RayClusterSpec{HeadGroupSpec: rayv1.HeadGroupSpec{Template: podTemplate("ray-head")}}}
	if err := env.Client.Create(ctx, rc); err != nil {
		t.Fatal(err)
	}
	lagging := &headListBefore{Client: env.Client}
	r := ray.NewReconciler(ctx, rayManager{c: lagging}, ray.RayClusterReconcilerOptions{})
	reconcileOnce := func() error {
		_, err := r.Reconcile(ctx, reconcile.Request{NamespacedName: key})
		return err
	}
	if err := reconcileOnce(); err != nil { // creates the head Pod, expects it
		t.Fatalf("first reconcile of RayCluster %s: %v", key, err)
	}
	if n := headPods(t, env.Client, key); n != 1 {
		t.Fatalf("RayCluster %s has %d head Pods after its first reconcile, want 1", key, n)
	}
	lagging.once = true // the next head Pod List is the informer's before that create
	// It creates a second head Pod, then its own status calculation, which
	// lists the head Pods again, fails on the two.
	if err := reconcileOnce(); err == nil || !strings.Contains(err.Error(), "found multiple heads") {
		t.Fatalf("second reconcile of RayCluster %s: %v, want it to create a second head Pod and fail on the two in its status", key, err)
	}
	if n := headPods(t, env.Client, key); n != 2 {
		t.Fatalf("RayCluster %s has %d head Pods (want 2): KubeRay no longer creates a second one; update examples/realops/README.md", key, n)
	}
	err := reconcileOnce()
	if err == nil || !strings.Contains(err.Error(), "2 head pods found") {
		t.Fatalf("third reconcile of RayCluster %s: %v, want it to fail on the 2 head Pods", key, err)
	}
	t.Logf("a head Pod List one create behind, then an expectation read that saw the create: 2 head Pods, and every reconcile fails: %v", err)
}

func headPods(t *testing.T, c client.Reader, key client.ObjectKey) int {
	t.Helper()
	pods := &corev1.PodList{}
	if err := c.List(t.Context(), pods, client.InNamespace(key.Namespace), client.MatchingLabels{"ray.io/cluster": key.Name, "ray.io/node-type": "head"}); err != nil {
		t.Fatal(err)
	}
	return len(pods.Items)
}

// headListBefore answers the first head Pod List after once is set with
// no Pods, as an informer that has not yet seen the head Pod's create, and
// reads the server otherwise.
type headListBefore struct {
	client.Client
	once bool
}

func (c *headListBefore) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	lo := (&client.ListOptions{}).ApplyOptions(opts)
	if _, ok := list.(*corev1.PodList); ok && c.once && lo.LabelSelector != nil && strings.Contains(lo.LabelSelector.String(), "ray.io/node-type=head") {
		c.once = false
		return nil
	}
	return c.Client.List(ctx, list, opts...)
}

// rayManager is the manager NewReconciler takes, outside the explorer: c as
// its client, and an index and an event recorder that drop what they get.
type rayManager struct {
	manager.Manager
	c client.Client
}

func (m rayManager) GetClient() client.Client                        { return m.c }
func (m rayManager) GetFieldIndexer() client.FieldIndexer            { return noIndex{} }
func (m rayManager) GetScheme() *runtime.Scheme                      { return m.c.Scheme() }
func (m rayManager) GetEventRecorderFor(string) record.EventRecorder { return &record.FakeRecorder{} }

type noIndex struct{}

func (noIndex) IndexField(context.Context, client.Object, string, client.IndexerFunc) error {
	return nil
}
