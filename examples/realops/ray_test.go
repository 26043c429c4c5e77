package realops

import (
	"context"
	"errors"
	"fmt"
	"testing"

	rayv1 "github.com/ray-project/kuberay/ray-operator/apis/ray/v1"
	"github.com/ray-project/kuberay/ray-operator/controllers/ray"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/record"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/statuspatch/statuspatch/testenv/explore"
)

// rayManager is the manager NewReconciler takes: the explorer's client, no
// cache index (the explorer's client has no cache of the manager's), no events.
type rayManager struct {
	manager.Manager
	c client.Client
}

func (m rayManager) GetClient() client.Client                        { return m.c }
func (m rayManager) GetFieldIndexer() client.FieldIndexer            { return noIndex{} }
func (m rayManager) GetEventRecorderFor(string) record.EventRecorder { return &record.FakeRecorder{} }

type noIndex struct{}

func (noIndex) IndexField(context.Context, client.Object, string, client.IndexerFunc) error {
	return nil
}

func TestExploreRayCluster(t *testing.T) {
	env := start(t, "github.com/ray-project/kuberay/ray-operator", rayv1.AddToScheme)
	if err := env.Client.Create(t.Context(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "ray"}}); err != nil {
		t.Fatal(err) // Pods, unlike the other kinds, need their namespace
	}
	mgr, err := env.NewManager(manager.Options{})
	if err != nil {
		t.Fatal(err)
	}
	explore.Check(t, explore.Scenario{
		Reconcilers: []explore.Reconciler{{
			Name: "raycluster", For: &rayv1.RayCluster{},
			Owns: []client.Object{&corev1.Pod{}, &corev1.Service{}, &corev1.Secret{}},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler { // as main.go builds it
				return ray.NewReconciler(t.Context(), rayManager{mgr, named{c, new(int)}}, ray.RayClusterReconcilerOptions{})
			},
		}},
		Objects: []client.Object{&rayv1.RayCluster{
			ObjectMeta: metav1.ObjectMeta{Namespace: "ray", Name: "hello"},
			Spec: rayv1.RayClusterSpec{
				HeadGroupSpec: rayv1.HeadGroupSpec{Template: podTemplate("ray-head")},
				WorkerGroupSpecs: []rayv1.WorkerGroupSpec{{GroupName: "workers", Replicas: ptr.To(int32(1)),
					MinReplicas: ptr.To(int32(0)), MaxReplicas: ptr.To(int32(3)), Template: podTemplate("ray-worker")}},
			}}},
		Actions: []explore.Action{{Name: "scale-to-2", Run: func(ctx context.Context, c client.Client) error {
			rc := &rayv1.RayCluster{}
			if err := c.Get(ctx, client.ObjectKey{Namespace: "ray", Name: "hello"}, rc); err != nil {
				return err
			}
			rc.Spec.WorkerGroupSpecs[0].Replicas = ptr.To(int32(2))
			return c.Update(ctx, rc)
		}}},
		Invariant: func(ctx context.Context, r client.Reader) error { // one head Pod, a worker Pod per replica
			rc, pods := &rayv1.RayCluster{}, &corev1.PodList{}
			if err := errors.Join(r.Get(ctx, client.ObjectKey{Namespace: "ray", Name: "hello"}, rc),
				r.List(ctx, pods, client.InNamespace("ray"), client.MatchingLabels{"ray.io/cluster": "hello"})); err != nil {
				return err
			}
			count := map[string]int32{}
			for _, p := range pods.Items {
				count[p.Labels["ray.io/node-type"]]++
			}
			if want := *rc.Spec.WorkerGroupSpecs[0].Replicas; count["head"] != 1 || count["worker"] != want {
				return fmt.Errorf("RayCluster ray/hello has %d head and %d worker Pods, wants 1 and %d", count["head"], count["worker"], want)
			}
			return nil
		},
	}, explore.Options{Backend: explore.Server(env)})
}

// named names a generateName create as the server would, from a counter
// (the same names in every schedule): the explorer records a write under
// the name it is sent with, and KubeRay creates its Pods by generateName.
type named struct {
	client.Client
	n *int
}

func (c named) Create(ctx context.Context, obj client.Object, opts ...client.CreateOption) error {
	if obj.GetName() == "" && obj.GetGenerateName() != "" {
		*c.n++
		obj.SetName(fmt.Sprintf("%s%05d", obj.GetGenerateName(), *c.n))
	}
	return c.Client.Create(ctx, obj, opts...)
}

func podTemplate(name string) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: name, Image: "rayproject/ray:2.46.0"}}}}
}
