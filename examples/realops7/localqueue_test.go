package realops7

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	configapi "sigs.k8s.io/kueue/apis/config/v1beta2"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	qcache "sigs.k8s.io/kueue/pkg/cache/queue"
	schdcache "sigs.k8s.io/kueue/pkg/cache/scheduler"
	"sigs.k8s.io/kueue/pkg/controller/core"
	"sigs.k8s.io/kueue/pkg/controller/core/indexer"
	preemptexpectations "sigs.k8s.io/kueue/pkg/scheduler/preemption/expectations"

	"github.com/statuspatch/statuspatch/testenv"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// ns is the namespace of the scenario's LocalQueue and Workloads.
const ns = "team"

// TestExploreLocalQueue explores kueue's core controllers with the
// defaults (docs/explore-your-operator.md, "With the defaults"), judged
// on the LocalQueue's status: the events kueue's controllers push to
// each other's channel sources are delivered in chosen steps. It reports
// nothing (2026-11-29: 1660 schedules in 5 min, level 0 exhausted, then
// the fault phase). Before a new process's first list ran the
// predicates, it reported the false alarms restartSeeds replay.
func TestExploreLocalQueue(t *testing.T) {
	env := startKueue(t)
	res, err := explore.Run(t.Context(), lqScenario(t), explore.Options{Backend: explore.Server(env), Budget: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	logReports(t, res)
	if res.Violation != nil {
		t.Fatalf("want no report, got %d, the first:\n%v", len(res.Violations), res.Violation)
	}
}

// restartSeeds are the two reports of TestExploreLocalQueue before a new
// process's first list gave the watches create events through their
// predicates (2026-11-29), both "no error loop": after a restart (#1) or
// a leader change (#1L) the new process's queue manager and cache, which
// kueue fills in the LocalQueue and ClusterQueue controllers' Create
// predicates, stayed empty, and every reconcile failed with
// "clusterQueue doesn't exist" / "localQueue doesn't exist or inactive".
// False alarms: a real informer's initial list runs those predicates.
var restartSeeds = []string{
	"clusterqueue_controller:cq@0,0 localqueue_controller:team/lq@0,0#1",
	"clusterqueue_controller:cq@0,0 localqueue_controller:team/lq@0,0#1L clusterqueue_controller:cq@0",
}

// TestLocalQueueRestartReplay replays restartSeeds: no report now.
func TestLocalQueueRestartReplay(t *testing.T) {
	env := startKueue(t)
	for _, seed := range restartSeeds {
		res, err := explore.Run(t.Context(), lqScenario(t), explore.Options{Backend: explore.Server(env), Versions: 8, Replay: seed})
		if err != nil {
			t.Fatal(err)
		}
		if res.Violation != nil || res.Diverged != "" {
			t.Fatalf("replay of %q: want no report, got diverged %q:\n%v", seed, res.Diverged, res.Violation)
		}
	}
}

// startKueue is start with the scenario's namespace (the explorer creates
// no namespace, and keeps this one across schedules).
func startKueue(t *testing.T) *testenv.Env {
	env := start(t)
	if err := env.Client.Create(t.Context(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
		t.Fatal(err)
	}
	return env
}

func logReports(t *testing.T, res *explore.Result) {
	t.Helper()
	t.Logf("%d schedules in %s, bounds %+v, %d violation(s)", res.Schedules, res.Elapsed.Round(time.Second), res.Bounds, len(res.Violations))
	for i, v := range res.Violations {
		t.Logf("report %d (rank %d, %s), found after %d schedules in %s:\n%s", i+1, v.Rank, v.RankReason, v.Schedules, v.FoundAfter.Round(time.Second), v)
	}
}

// setupKueue is cmd/kueue/main.go's wiring of the core controllers, with
// its default configuration: the field indexes (setupIndexes' first
// call), the scheduler's cache and the queue manager (new for each Setup:
// they are the process's memory), then core.SetupControllers. Left out:
// the inadmissible-workload requeuer and the scheduler, runnables main.go
// adds with mgr.Add (the explorer does not run them), the role tracker
// (standalone mode), metrics and webhooks.
func setupKueue(mgr manager.Manager) error {
	cfg := configapi.Configuration{}
	configapi.SetDefaults_Configuration(&cfg)
	ctx := context.Background()
	if err := indexer.Setup(ctx, mgr.GetFieldIndexer()); err != nil {
		return err
	}
	cCache := schdcache.New(mgr.GetClient())
	pe := preemptexpectations.New()
	queues := qcache.NewManager(mgr.GetClient(), cCache, qcache.NewRequeuer(), qcache.WithPreemptionExpectations(pe))
	if name, err := core.SetupControllers(mgr, queues, cCache, &cfg, nil, pe, nil); err != nil {
		return fmt.Errorf("controller %s: %w", name, err)
	}
	return nil
}

// lqScenario is a ResourceFlavor, a ClusterQueue of 10 CPUs of it for
// every namespace, and a LocalQueue of it in ns; the user submits a
// Workload of one CPU to the LocalQueue, and holds the ClusterQueue
// (stopPolicy Hold), each at any point. Nothing admits (the scheduler is
// not run), so the Workload stays pending. Objects are given as kueue's
// webhooks leave them (webhooks do not run). Its invariant is what the
// LocalQueue's status promises in a steady state: Active as its
// ClusterQueue is, and its pending Workloads counted.
func lqScenario(t *testing.T) explore.Scenario {
	return explore.Scenario{
		Setup: setupKueue,
		Objects: []client.Object{
			&kueue.ResourceFlavor{ObjectMeta: metav1.ObjectMeta{Name: "default"}},
			&kueue.ClusterQueue{ObjectMeta: metav1.ObjectMeta{Name: "cq"}, Spec: kueue.ClusterQueueSpec{
				NamespaceSelector: &metav1.LabelSelector{},
				ResourceGroups: []kueue.ResourceGroup{{CoveredResources: []corev1.ResourceName{corev1.ResourceCPU},
					Flavors: []kueue.FlavorQuotas{{Name: "default", Resources: []kueue.ResourceQuota{{Name: corev1.ResourceCPU, NominalQuota: resource.MustParse("10")}}}}}},
			}},
			&kueue.LocalQueue{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "lq"}, Spec: kueue.LocalQueueSpec{ClusterQueue: "cq"}},
		},
		Actions: []explore.Action{{Name: "submit", Run: func(ctx context.Context, c client.Client) error {
			return c.Create(ctx, workload("wl"))
		}}, {Name: "hold", Run: func(ctx context.Context, c client.Client) error {
			cq := &kueue.ClusterQueue{}
			if err := c.Get(ctx, client.ObjectKey{Name: "cq"}, cq); err != nil {
				return err
			}
			cq.Spec.StopPolicy = ptr.To(kueue.Hold)
			return c.Update(ctx, cq)
		}}},
		Invariant: lqInvariant,
	}
}

// workload is a Workload of one pod of one CPU in LocalQueue lq.
func workload(name string) *kueue.Workload {
	return &kueue.Workload{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: kueue.WorkloadSpec{
		QueueName: "lq",
		PodSets: []kueue.PodSet{{Name: kueue.DefaultPodSetName, Count: 1, Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
			RestartPolicy: corev1.RestartPolicyNever,
			Containers: []corev1.Container{{Name: "c", Image: "busybox", Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}}}},
		}}}},
	}}
}

// lqInvariant: in a steady state the LocalQueue is Active exactly when
// its ClusterQueue is, and counts as pending every Workload of it
// without a quota reservation.
func lqInvariant(ctx context.Context, r client.Reader) error {
	lq, cq := &kueue.LocalQueue{}, &kueue.ClusterQueue{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: ns, Name: "lq"}, lq); err != nil {
		return err
	}
	if err := r.Get(ctx, client.ObjectKey{Name: "cq"}, cq); err != nil {
		return err
	}
	cqActive := meta.IsStatusConditionTrue(cq.Status.Conditions, kueue.ClusterQueueActive)
	if lqActive := meta.IsStatusConditionTrue(lq.Status.Conditions, kueue.LocalQueueActive); lqActive != cqActive {
		return fmt.Errorf("LocalQueue %s/lq is Active %t, its ClusterQueue cq %t", ns, lqActive, cqActive)
	}
	var wls kueue.WorkloadList
	if err := r.List(ctx, &wls, client.InNamespace(ns)); err != nil {
		return err
	}
	pending := int32(0)
	for _, wl := range wls.Items {
		if wl.Spec.QueueName == "lq" && !meta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadQuotaReserved) {
			pending++
		}
	}
	if cqActive && lq.Status.PendingWorkloads != pending {
		return fmt.Errorf("LocalQueue %s/lq counts %d pending Workloads, %d are", ns, lq.Status.PendingWorkloads, pending)
	}
	return nil
}
