package realops6

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	clusterv1 "sigs.k8s.io/cluster-api/api/core/v1beta2"
	"sigs.k8s.io/cluster-api/core/reconcilers/machinedeployment"
	"sigs.k8s.io/cluster-api/feature"

	"github.com/statuspatch/statuspatch/testenv"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// ns is the namespace of the scenario's Cluster and MachineDeployment.
const ns = "capi"

// TestExploreMachineDeployment explores Cluster API's MachineDeployment
// controller with the defaults (docs/explore-your-operator.md, "With the
// defaults"), Cluster API's included: its ReconcilerRateLimiting gate on,
// so that each reconcile after the controller's own write of a
// MachineSet waits until the MachineSet informer's store has synced past
// it, which the explorer answers from its cache model. That wait closes
// the second MachineSet the search finds with the gate off
// (TestMachineDeploymentDuplicateReplay), by reading: the search reports
// nothing, but its rate limiter (1 s per object, on the wall clock)
// makes a reconcile the schedule chooses less than a second after one
// that read a requeue that reads nothing, so the reconciles after its
// own writes, and every read of the store, ran only in the drain, whose
// store is at the newest point. The Result says so (NotExplored): the
// search is Unknown there, not "no violation" (examples/realops/README.md),
// and for each kind whose cached reads it never served behind the newest
// though an older version was there (logged).
func TestExploreMachineDeployment(t *testing.T) {
	env := startCAPI(t)
	res, err := explore.Run(t.Context(), mdScenario(t), explore.Options{Backend: explore.Server(env), Budget: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	logReports(t, res)
	if res.Violation != nil {
		t.Fatalf("want no report with the gate on (a second MachineSet waits on the informer's store), got %d, the first:\n%v", len(res.Violations), res.Violation)
	}
	if res.Schedules < 50 {
		t.Fatalf("the search ran %d schedules: too few to say anything", res.Schedules)
	}
	var deferred, store *explore.NotExplored
	for i, n := range res.NotExplored {
		switch {
		case n.Reconciler == "machinedeployment" && n.Store == "" && n.Cached == "":
			deferred = &res.NotExplored[i]
		case n.Reconciler == "machinedeployment" && n.Store == "MachineSet":
			store = &res.NotExplored[i]
		case n.Cached == "" || n.CachedOlder == 0: // a kind's cached reads never behind, with their counts
			t.Errorf("not explored, unexpected: %s", n)
		}
	}
	if deferred == nil || deferred.Deferred == 0 || store == nil || store.StoreReads == 0 || store.StoreDrain != store.StoreReads {
		t.Fatalf("want the Result to say the rate limiter deferred reconciles to the drain and every MachineSet store read ran there; got %q", res.NotExplored)
	}
}

// duplicateSeed is the first report of TestExploreMachineDeployment with
// the gate off (2026-11-29): a reconcile after the controller's own create of the
// upgrade's MachineSet lists MachineSets one list behind, finds none for
// the new template and creates a second.
const duplicateSeed = "!upgrade machinedeployment:capi/workers@0,0 machinedeployment:capi/workers@0,0,0 " +
	"machinedeployment:capi/workers@0,0,0,0,0 machinedeployment:capi/workers@0,0,0,1"

// TestMachineDeploymentDuplicateReplay replays duplicateSeed, the gate
// off: two MachineSets for the upgraded template in the steady state.
func TestMachineDeploymentDuplicateReplay(t *testing.T) {
	withoutRateLimiting(t)
	env := startCAPI(t)
	res, err := explore.Run(t.Context(), mdScenario(t), explore.Options{Backend: explore.Server(env), Versions: 8, Replay: duplicateSeed})
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case res.Diverged != "" && !res.DivergedByClock:
		t.Fatalf("replay of %q diverged: %s", duplicateSeed, res.Diverged)
	case res.Diverged != "":
		// The step after the duplicate applies the first of the two
		// MachineSets sorted by creationTimestamp (whole seconds), ties by
		// name: created in the same second in one run, a second apart in
		// the other, it applies the other one. The server's clock, which
		// no seed controls: whether the replay repeats is Unknown, its
		// verdict the first run's.
		t.Logf("replay of %q: determinism Unknown, %s", duplicateSeed, res.Diverged)
	}
	v := res.Violation
	if v == nil || v.Invariant != explore.InvariantUser || !strings.Contains(v.Message, "MachineDeployment capi/workers has 2 MachineSets for its current template (v1.36.0)") {
		t.Fatalf("replay of %q: want a second MachineSet for v1.36.0, got:\n%v", duplicateSeed, v)
	}
	t.Logf("rank %d (%s):\n%s", v.Rank, v.RankReason, v)
}

// withoutRateLimiting turns Cluster API's ReconcilerRateLimiting feature
// gate off for t, as core/main.go's --feature-gates=ReconcilerRateLimiting=false
// does. On, its default, every controller built by util/controller
// reconciles an object at most once a second and, after its own write of
// a kind, waits until that kind's informer's store (from mgr.GetCache())
// has synced past it (its consistency store).
func withoutRateLimiting(t *testing.T) {
	t.Helper()
	if err := feature.MutableGates.Set("ReconcilerRateLimiting=false"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := feature.MutableGates.Set("ReconcilerRateLimiting=true"); err != nil {
			t.Error(err)
		}
	})
}

// startCAPI is start with the scenario's namespace (the explorer creates
// no namespace, and keeps this one across schedules).
func startCAPI(t *testing.T) *testenv.Env {
	env := start(t)
	if err := env.Client.Create(t.Context(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
		t.Fatal(err)
	}
	return env
}

func logReports(t *testing.T, res *explore.Result) {
	t.Helper()
	t.Logf("%d schedules in %s, bounds %+v, %d violation(s)", res.Schedules, res.Elapsed.Round(time.Second), res.Bounds, len(res.Violations))
	for _, n := range res.NotExplored {
		t.Log(n)
	}
	for i, v := range res.Violations {
		t.Logf("report %d (rank %d, %s), found after %d schedules in %s:\n%s", i+1, v.Rank, v.RankReason, v.Schedules, v.FoundAfter.Round(time.Second), v)
	}
}

// mdScenario is a Cluster and a MachineDeployment of 2 replicas, rolled
// out by the default strategy (RollingUpdate, maxSurge 1, maxUnavailable
// 0), set up as core/main.go does, and two user actions, each at any
// point: a scale to 3 and an upgrade (a new Kubernetes version in the
// template, which rolls out a new MachineSet). The MachineDeployment is
// given as its defaulting webhook leaves it (webhooks do not run); its
// infrastructure reference names a kind that is not a template, which the
// controller does not read, so no provider's CRDs are needed. Its
// invariant is what a rolling update promises: at most one MachineSet
// for the current template, and no more replicas than the
// MachineDeployment's plus maxSurge.
func mdScenario(t *testing.T) explore.Scenario {
	return explore.Scenario{
		Setup: func(mgr manager.Manager) error { // core/main.go's setupReconcilers, the MachineDeployment's, with its process's context
			return (&machinedeployment.Reconciler{Client: mgr.GetClient(), APIReader: mgr.GetAPIReader()}).
				SetupWithManager(explore.ContextOf(mgr), mgr, controller.Options{MaxConcurrentReconciles: 10})
		},
		Objects: []client.Object{
			&clusterv1.Cluster{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "prod"}, Spec: clusterv1.ClusterSpec{Paused: ptr.To(false)}},
			machineDeployment(),
		},
		Actions: []explore.Action{{Name: "scale-to-3", Run: func(ctx context.Context, c client.Client) error {
			md := &clusterv1.MachineDeployment{}
			if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: "workers"}, md); err != nil {
				return err
			}
			md.Spec.Replicas = ptr.To(int32(3))
			return c.Update(ctx, md)
		}}, {Name: "upgrade", Run: func(ctx context.Context, c client.Client) error {
			md := &clusterv1.MachineDeployment{}
			if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: "workers"}, md); err != nil {
				return err
			}
			md.Spec.Template.Spec.Version = "v1.36.0"
			return c.Update(ctx, md)
		}}},
		Invariant: mdInvariant,
	}
}

// machineDeployment is the scenario's MachineDeployment with what its
// defaulting webhook adds (core/webhooks/admission/machinedeployment.go).
func machineDeployment() *clusterv1.MachineDeployment {
	sel := map[string]string{clusterv1.ClusterNameLabel: "prod", clusterv1.MachineDeploymentNameLabel: "workers"}
	return &clusterv1.MachineDeployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "workers", Labels: map[string]string{clusterv1.ClusterNameLabel: "prod"}},
		Spec: clusterv1.MachineDeploymentSpec{
			ClusterName: "prod",
			Replicas:    ptr.To(int32(2)),
			Selector:    metav1.LabelSelector{MatchLabels: sel},
			Rollout: clusterv1.MachineDeploymentRolloutSpec{Strategy: clusterv1.MachineDeploymentRolloutStrategy{
				Type: clusterv1.RollingUpdateMachineDeploymentStrategyType,
				RollingUpdate: clusterv1.MachineDeploymentRolloutStrategyRollingUpdate{
					MaxSurge: ptr.To(intstr.FromInt32(1)), MaxUnavailable: ptr.To(intstr.FromInt32(0))}}},
			Template: clusterv1.MachineTemplateSpec{
				ObjectMeta: clusterv1.ObjectMeta{Labels: sel},
				Spec: clusterv1.MachineSpec{
					ClusterName: "prod",
					Version:     "v1.35.0",
					Bootstrap:   clusterv1.Bootstrap{DataSecretName: ptr.To("workers-bootstrap")},
					InfrastructureRef: clusterv1.ContractVersionedObjectReference{
						APIGroup: "infrastructure.cluster.x-k8s.io", Kind: "GenericMachine", Name: "workers"},
				},
			},
		},
	}
}

// mdInvariant: the MachineDeployment's MachineSets hold at most one for
// its current template (the Kubernetes version, the only field the
// scenario changes), and their replicas add up to no more than the
// MachineDeployment's plus maxSurge (1).
func mdInvariant(ctx context.Context, r client.Reader) error {
	md := &clusterv1.MachineDeployment{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: ns, Name: "workers"}, md); err != nil {
		return client.IgnoreNotFound(err)
	}
	mss := &clusterv1.MachineSetList{}
	if err := r.List(ctx, mss, client.InNamespace(ns), client.MatchingLabels(md.Spec.Selector.MatchLabels)); err != nil {
		return err
	}
	current, total := 0, int32(0)
	for _, ms := range mss.Items {
		if !metav1.IsControlledBy(&ms, md) {
			continue
		}
		total += ptr.Deref(ms.Spec.Replicas, 0)
		if ms.Spec.Template.Spec.Version == md.Spec.Template.Spec.Version {
			current++
		}
	}
	if current > 1 {
		return fmt.Errorf("MachineDeployment %s/%s has %d MachineSets for its current template (%s)", ns, md.Name, current, md.Spec.Template.Spec.Version)
	}
	if limit := ptr.Deref(md.Spec.Replicas, 0) + 1; total > limit {
		return fmt.Errorf("MachineDeployment %s/%s: its MachineSets ask for %d replicas, more than %d (replicas and maxSurge)", ns, md.Name, total, limit)
	}
	return nil
}
