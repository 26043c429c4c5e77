package realops

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	rayv1 "github.com/ray-project/kuberay/ray-operator/apis/ray/v1"
	"github.com/ray-project/kuberay/ray-operator/controllers/ray"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/statuspatch/statuspatch/testenv"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

func TestExploreRayCluster(t *testing.T) {
	env := startRay(t)
	res, err := explore.Run(t.Context(), rayScenario(func(mgr manager.Manager) error { // as main.go
		return ray.NewReconciler(t.Context(), mgr, ray.RayClusterReconcilerOptions{}).SetupWithManager(mgr, 1)
	}), explore.Options{Backend: explore.Server(env), Depth: 2, Versions: 3, StaleReads: 6, Budget: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation // the operator's bug: a second head Pod, then every reconcile fails
	if v == nil || !v.Broke(explore.InvariantErrorLoop) || !strings.Contains(v.String(), "2 head pods found") {
		t.Fatalf("want a second head Pod and the error loop it causes, got after %d schedules:\n%v", res.Schedules, v)
	}
	t.Logf("found after %d schedules in %s:\n%s", v.Schedules, v.FoundAfter.Round(time.Second), v)
}

// startRay runs the full API with KubeRay's CRDs and the namespace of the
// scenario: Pods, unlike the other kinds, need theirs.
func startRay(t testing.TB) *testenv.Env {
	env := start(t, "github.com/ray-project/kuberay/ray-operator", rayv1.AddToScheme)
	if err := env.Client.Create(t.Context(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "ray"}}); err != nil {
		t.Fatal(err)
	}
	return env
}

// rayScenario is a RayCluster with a head and one worker, a user scaling
// the workers to 2 at any point, and the operator's promise: one head Pod
// and a worker Pod per replica.
func rayScenario(setup func(manager.Manager) error) explore.Scenario {
	return explore.Scenario{
		Setup: setup,
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
		Invariant: func(ctx context.Context, r client.Reader) error {
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
	}
}

func podTemplate(name string) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: name, Image: "rayproject/ray:2.46.0"}}}}
}
