package realops2

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	schedv1alpha1 "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"
	schedcontrollers "sigs.k8s.io/scheduler-plugins/pkg/controllers"

	"github.com/statuspatch/statuspatch/testenv"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

const schedNS = "sched"

// schedSetup is cmd/controller/app/server.go's Run between ctrl.NewManager
// and mgr.Start: the PodGroup and ElasticQuota controllers with the
// default --workers=1 (health checks and metrics left out).
func schedSetup(mgr manager.Manager) error {
	if err := (&schedcontrollers.PodGroupReconciler{Client: mgr.GetClient(), Scheme: mgr.GetScheme(), Workers: 1}).SetupWithManager(mgr); err != nil {
		return err
	}
	return (&schedcontrollers.ElasticQuotaReconciler{Client: mgr.GetClient(), Scheme: mgr.GetScheme(), Workers: 1}).SetupWithManager(mgr)
}

// schedPod is a member of PodGroup pg asking for 500m of CPU, unbound (the
// API server deletes an unbound Pod at once, so the explorer's reset
// leaves none terminating).
func schedPod(name string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: schedNS, Name: name,
		Labels: map[string]string{schedv1alpha1.PodGroupLabel: "pg"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox:1.37",
			Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m")}}}}}}
}

// setPodPhase writes what the kubelet writes when a Pod's phase changes.
func setPodPhase(name string, phase corev1.PodPhase) explore.Action {
	return explore.Action{Name: fmt.Sprintf("%s-%s", name, phase), Run: func(ctx context.Context, c client.Client) error {
		p := &corev1.Pod{}
		if err := c.Get(ctx, client.ObjectKey{Namespace: schedNS, Name: name}, p); err != nil {
			return client.IgnoreNotFound(err)
		}
		p.Status.Phase = phase
		return c.Status().Update(ctx, p)
	}}
}

// schedScenario is a PodGroup of minMember 2 with its two Pods, an
// ElasticQuota over the namespace, both controllers as main.go sets them
// up, three kubelet writes and a user's delete, each at any point: Pod a
// running, Pod b running, Pod b failed, the PodGroup deleted.
func schedScenario() explore.Scenario {
	cpu := func(q string) corev1.ResourceList {
		return corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(q)}
	}
	return explore.Scenario{
		Setup: schedSetup,
		Objects: []client.Object{
			&schedv1alpha1.PodGroup{ObjectMeta: metav1.ObjectMeta{Namespace: schedNS, Name: "pg"}, Spec: schedv1alpha1.PodGroupSpec{MinMember: 2}},
			&schedv1alpha1.ElasticQuota{ObjectMeta: metav1.ObjectMeta{Namespace: schedNS, Name: "eq"},
				Spec: schedv1alpha1.ElasticQuotaSpec{Min: cpu("1"), Max: cpu("2")}},
			schedPod("a"), schedPod("b"),
		},
		Actions: []explore.Action{setPodPhase("a", corev1.PodRunning), setPodPhase("b", corev1.PodRunning), setPodPhase("b", corev1.PodFailed),
			{Name: "delete-pg", Run: func(ctx context.Context, c client.Client) error {
				return c.Delete(ctx, &schedv1alpha1.PodGroup{ObjectMeta: metav1.ObjectMeta{Namespace: schedNS, Name: "pg"}})
			}}},
		Invariant: schedInvariant,
	}
}

// schedInvariant is what the two controllers promise in a steady state: a
// PodGroup not finished, failed or deleted counts its Pods by phase, and an
// ElasticQuota's used CPU is the requests of the Running Pods of its
// namespace.
func schedInvariant(ctx context.Context, r client.Reader) error {
	pods := &corev1.PodList{}
	if err := r.List(ctx, pods, client.InNamespace(schedNS)); err != nil {
		return err
	}
	var running, succeeded, failed int32
	var used resource.Quantity
	for _, p := range pods.Items {
		switch p.Status.Phase {
		case corev1.PodRunning:
			running++
			used.Add(p.Spec.Containers[0].Resources.Requests[corev1.ResourceCPU])
		case corev1.PodSucceeded:
			succeeded++
		case corev1.PodFailed:
			failed++
		}
	}
	pg := &schedv1alpha1.PodGroup{}
	err := r.Get(ctx, client.ObjectKey{Namespace: schedNS, Name: "pg"}, pg)
	if client.IgnoreNotFound(err) != nil {
		return err
	}
	if s := pg.Status; err == nil && s.Phase != schedv1alpha1.PodGroupFinished && s.Phase != schedv1alpha1.PodGroupFailed &&
		(s.Phase != schedv1alpha1.PodGroupScheduling && s.Phase != schedv1alpha1.PodGroupRunning ||
			s.Running != running || s.Succeeded != succeeded || s.Failed != failed) {
		return fmt.Errorf("PodGroup %s/pg at phase %q counts %d/%d/%d running/succeeded/failed, its Pods %d/%d/%d",
			schedNS, s.Phase, s.Running, s.Succeeded, s.Failed, running, succeeded, failed)
	}
	eq := &schedv1alpha1.ElasticQuota{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: schedNS, Name: "eq"}, eq); err != nil {
		return err
	}
	if got := eq.Status.Used[corev1.ResourceCPU]; got.Cmp(used) != 0 {
		return fmt.Errorf("ElasticQuota %s/eq uses %s CPU, its Running Pods ask for %s", schedNS, got.String(), used.String())
	}
	return nil
}

// startSched runs the full API with scheduler-plugins' CRDs and the
// namespace of the scenario: Pods, unlike the other kinds, need theirs.
func startSched(t *testing.T) *testenv.Env {
	env := start(t, "sigs.k8s.io/scheduler-plugins", schedv1alpha1.AddToScheme)
	if err := env.Client.Create(t.Context(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: schedNS}}); err != nil {
		t.Fatal(err)
	}
	return env
}

func TestExploreSchedulerPlugins(t *testing.T) {
	env := startSched(t)
	res, err := explore.Run(t.Context(), schedScenario(),
		explore.Options{Backend: explore.Server(env), Crashes: 1, LeaderChange: true, Budget: 4 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d schedules (%d pruned) in %s, exhausted %v, at %s", res.Schedules, res.Pruned, res.Elapsed.Round(time.Second), res.Exhausted, res.Bounds)
	if v := res.Violation; v != nil {
		t.Errorf("found after %d schedules in %s at %s:\n%s", v.Schedules, v.FoundAfter.Round(time.Second), v.Bounds, v)
	}
}

// TestSchedulerPluginsDefaults explores the same scenario with the default
// options and a budget.
func TestSchedulerPluginsDefaults(t *testing.T) {
	env := startSched(t)
	res, err := explore.Run(t.Context(), schedScenario(), explore.Options{Backend: explore.Server(env), Budget: 4 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d schedules (%d pruned) in %s, exhausted %v, at %s", res.Schedules, res.Pruned, res.Elapsed.Round(time.Second), res.Exhausted, res.Bounds)
	if v := res.Violation; v != nil {
		t.Errorf("found after %d schedules in %s at %s:\n%s", v.Schedules, v.FoundAfter.Round(time.Second), v.Bounds, v)
	}
}
