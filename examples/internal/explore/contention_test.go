package explore_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/patchertest"
	"github.com/statuspatch/statuspatch/testenv/explore"

	demov1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
	"github.com/statuspatch/statuspatch/examples/internal/controller"
	"github.com/statuspatch/statuspatch/examples/internal/controller/blind"
	"github.com/statuspatch/statuspatch/examples/internal/patchers"
)

const rounds = 50

// reconcileTogether runs every reconciler's Reconcile for key at once and
// returns their errors.
func reconcileTogether(key client.ObjectKey, rs ...reconcile.Reconciler) []error {
	errs := make([]error, len(rs))
	var wg sync.WaitGroup
	for i, r := range rs {
		wg.Go(func() { _, errs[i] = r.Reconcile(ctx, ctrl.Request{NamespacedName: key}) })
	}
	wg.Wait()
	return errs
}

// 1. Two reconciles of the same new Rollout, released together after both
// read status.plan == nil, end with exactly one plan: the loser's write
// conflicts, Retry re-reads through the API reader, and it finds the
// winner's plan and skips.
func TestDoubleReconcileBuildsOnePlan(t *testing.T) {
	ns := uniq("double")
	for round := range rounds {
		key := newRollout(t, ns, fmt.Sprintf("r%d", round), "", true)
		b := newBarrier(2)
		log := &planLog{}
		rs := make([]reconcile.Reconciler, 2)
		for i := range rs {
			rs[i] = &controller.RolloutReconciler{
				Client:    patcher.ForManager(explore.Clients{Client: gated(uncached(t), b, isRollout), APIReader: shared.Client}, patcher.WithFieldOwner(controller.FieldOwner)),
				NewPlanID: func() string { return fmt.Sprintf("round%d-reconciler%d", round, i) },
				OnPlan:    log.record,
			}
		}
		for i, err := range reconcileTogether(key, rs...) {
			if err != nil {
				t.Fatalf("round %d: reconcile %d: %v", round, i, err)
			}
		}
		server := getRollout(t, key).Status.Plan
		if len(log.built) != 1 || len(log.skipped) != 1 {
			t.Fatalf("round %d: built %v, skipped %v: want exactly one plan built and one reconcile that observed it and skipped", round, log.built, log.skipped)
		}
		if server == nil || server.ID != log.built[0] || log.skipped[0] != log.built[0] {
			t.Fatalf("round %d: server plan %+v, built %v, skipped reconcile saw %v", round, server, log.built, log.skipped)
		}
	}
}

// 2. The same scenario with the blind baselines ends with a lost plan: both
// reconciles' writes succeed, each believes it built the plan, and the
// server keeps only the last one. The test asserts that it does, or the
// scenario could not catch what test 1 claims.
func TestBlindBaselineLosesPlans(t *testing.T) {
	for _, mode := range []blind.Mode{blind.ModeMergeFrom, blind.ModeApply} {
		t.Run(mode.String(), func(t *testing.T) {
			lost := 0
			ns := uniq(fmt.Sprintf("blind-%d", mode))
			for round := range rounds {
				key := newRollout(t, ns, fmt.Sprintf("r%d", round), "", false)
				b := newBarrier(2)
				log := &planLog{}
				rs := make([]reconcile.Reconciler, 2)
				for i := range rs {
					rs[i] = &blind.RolloutReconciler{
						Client:    gated(uncached(t), b, isRollout),
						Mode:      mode,
						NewPlanID: func() string { return fmt.Sprintf("round%d-reconciler%d", round, i) },
						OnPlan:    log.record,
					}
				}
				for i, err := range reconcileTogether(key, rs...) {
					if err != nil {
						t.Fatalf("round %d: reconcile %d: %v", round, i, err)
					}
				}
				server := getRollout(t, key).Status.Plan
				if len(log.built) > 1 {
					lost++ // two plans written, one silently overwritten
					if server == nil || !slices.Contains(log.built, server.ID) {
						t.Fatalf("round %d: server plan %+v is none of %v", round, server, log.built)
					}
				}
			}
			if lost == 0 {
				t.Fatalf("%s never lost a plan in %d rounds: the scenario does not race", mode, rounds)
			}
			t.Logf("%s: a plan was silently overwritten in %d of %d rounds", mode, lost, rounds)
		})
	}
}

// 3. A reconciler whose reads lag (a stale informer cache) reconciles a
// Rollout another replica has planned meanwhile. When that replica is
// another process, the reconciler writes from a stale base and conflicts;
// Retry re-reads through the API reader, converges on the server's state
// and loses nothing. Without an API reader every retry reads the same
// stale object and conflicts again: the budget runs out, the reconcile is
// requeued, and still nothing is lost. When the plan was this process's
// own write, the read is known to be stale before anything is written:
// with an API reader the reconcile reads fresh and moves on without a
// conflict; without one it writes nothing and requeues after
// patcher.StaleCacheRequeue.
func TestStaleCacheConflictsAndRetryConverges(t *testing.T) {
	for _, ownWrite := range []bool{false, true} {
		for _, withAPIReader := range []bool{true, false} {
			t.Run(fmt.Sprintf("ownWrite=%v/APIReader=%v", ownWrite, withAPIReader), func(t *testing.T) {
				staleCacheScenario(t, ownWrite, withAPIReader)
			})
		}
	}
}

func staleCacheScenario(t *testing.T, ownWrite, withAPIReader bool) {
	key := newRollout(t, uniq("stale"), fmt.Sprintf("own-%v-api-reader-%v", ownWrite, withAPIReader), "", true)
	stale := patchertest.NewClient(shared.Client, patchertest.Faults{StaleReads: 100})
	if err := stale.Get(ctx, key, &demov1.Rollout{}); err != nil { // the cache's snapshot: no plan
		t.Fatal(err)
	}
	// Another replica plans meanwhile.
	if ownWrite {
		// This process's own write goes through the same client as the
		// lagging reads, as a manager's writes and cached reads do: the
		// patchers' records are per client.
		fresh := &controller.RolloutReconciler{Client: patcher.ForManager(explore.Clients{Client: stale, APIReader: shared.Client}, patcher.WithFieldOwner(controller.FieldOwner)),
			NewPlanID: func() string { return "fresh" }}
		if _, err := fresh.Reconcile(ctx, ctrl.Request{NamespacedName: key}); err != nil {
			t.Fatal(err)
		}
	} else {
		planElsewhere(t, key, "fresh")
	}

	writesBefore := stale.StatusWrites()
	log := &planLog{}
	// The manager this reconciler's client stands for: its cache is stale,
	// and it has an API reader or, for the case without one, none.
	mgr := explore.Clients{Client: stale}
	if withAPIReader {
		mgr.APIReader = shared.Client
	}
	r := &controller.RolloutReconciler{
		Client: patcher.ForManager(mgr, patcher.WithFieldOwner(controller.FieldOwner),
			patcher.WithBackoff(wait.Backoff{Duration: time.Millisecond, Factor: 1, Steps: 4})),
		NewPlanID: func() string { return "stale" },
		OnPlan:    log.record,
	}
	res, err := r.Reconcile(ctx, ctrl.Request{NamespacedName: key})
	if err != nil {
		t.Fatal(err)
	}
	if stale.StaleReadsServed() == 0 {
		t.Fatal("no stale read was served: the scenario does not exercise a lagging cache")
	}
	server := getRollout(t, key)
	if got := server.Status.Plan; got == nil || got.ID != "fresh" {
		t.Fatalf("server plan %+v, want the fresh replica's plan: a write was lost", got)
	}
	writes := stale.StatusWrites() - writesBefore
	switch {
	case ownWrite && withAPIReader:
		// Read fresh at once: the plan is there, so this reconcile does the
		// next step, in one write that does not conflict.
		if writes != 1 || server.Status.CompletedSteps != 1 || len(log.built)+len(log.skipped) != 0 || res.RequeueAfter != 0 {
			t.Fatalf("status writes %d, completed steps %d, plans %v/%v, result %+v: want 1 write that completes step 1, no plan decision, no requeue",
				writes, server.Status.CompletedSteps, log.built, log.skipped, res)
		}
	case ownWrite:
		if writes != 0 || res.RequeueAfter != patcher.StaleCacheRequeue {
			t.Fatalf("status writes %d, result %+v: want no write and a requeue after %s", writes, res, patcher.StaleCacheRequeue)
		}
	case withAPIReader:
		// One write from the stale base (409), then a fresh read shows the
		// plan and nothing more is written.
		if writes != 1 || !slices.Equal(log.skipped, []string{"fresh"}) || len(log.built) != 0 {
			t.Fatalf("status writes %d, built %v, skipped %v: want 1 conflicting write, then skip on the fresh plan", writes, log.built, log.skipped)
		}
	default:
		if writes != 4 || res.RequeueAfter == 0 || len(log.built)+len(log.skipped) != 0 {
			t.Fatalf("status writes %d, result %+v, plans %v/%v: want 4 conflicting attempts and a requeue", writes, res, log.built, log.skipped)
		}
	}
}

// planElsewhere writes a plan the way another process's replica would: not
// through a patcher of this process, so this process's record of its own
// writes does not know it.
func planElsewhere(t *testing.T, key client.ObjectKey, id string) {
	t.Helper()
	ro := getRollout(t, key)
	base := ro.DeepCopy()
	ro.Status.Plan = controller.NewPlan(ro, id)
	ro.Status.Phase = demov1.RolloutPlanning
	ro.Status.ObservedGeneration = ro.Generation
	//statuspatch:allow another process's write, which this process's record of its own writes must not see
	if err := shared.Client.Status().Patch(ctx, ro, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})); err != nil {
		t.Fatal(err)
	}
}

// 4. Many reconciles (one per completed Rollout) join the same Fleet at
// once, all having read the Fleet before any writes: every entry survives.
// The blind baseline, in the same scenario, loses entries.
func TestManyWritersJoinFleet(t *testing.T) {
	const writers = 10
	run := func(t *testing.T, name string, makeReconciler func(c client.Client) reconcile.Reconciler) (int, string) {
		t.Helper()
		name = uniq(name)
		keys := make([]client.ObjectKey, writers)
		driver := &controller.RolloutReconciler{Client: patcher.ForManager(explore.Clients{Client: shared.Client, APIReader: shared.Client}, patcher.WithFieldOwner(controller.FieldOwner))}
		for i := range keys {
			keys[i] = newRollout(t, "many", fmt.Sprintf("%s-%d", name, i), name, true)
			// Drive it to completion while its Fleet does not exist yet.
			for range 6 {
				if _, err := driver.Reconcile(ctx, ctrl.Request{NamespacedName: keys[i]}); err != nil {
					t.Fatal(err)
				}
			}
			if ph := getRollout(t, keys[i]).Status.Phase; ph != demov1.RolloutCompleted {
				t.Fatalf("%s: phase %q after driving it, want Completed", keys[i], ph)
			}
		}
		newFleet(t, name, writers)
		b := newBarrier(writers)
		errs := make([]error, writers)
		var wg sync.WaitGroup
		for i, key := range keys {
			r := makeReconciler(gated(uncached(t), b, isFleet))
			wg.Go(func() { _, errs[i] = r.Reconcile(ctx, ctrl.Request{NamespacedName: key}) })
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("reconcile %d: %v", i, err)
			}
		}
		return len(getFleet(t, name).Status.Members), name
	}

	for round := range 3 {
		n, name := run(t, fmt.Sprintf("patcher-%d", round), func(c client.Client) reconcile.Reconciler {
			return &controller.RolloutReconciler{Client: patcher.ForManager(explore.Clients{Client: c, APIReader: shared.Client}, patcher.WithFieldOwner(controller.FieldOwner))}
		})
		if n != writers {
			t.Fatalf("round %d: fleet has %d members, want all %d", round, n, writers)
		}
		fr := &controller.FleetReconciler{Client: patcher.ForManager(explore.Clients{Client: shared.Client, APIReader: shared.Client}, patcher.WithFieldOwner(controller.FieldOwner))}
		if _, err := fr.Reconcile(ctx, ctrl.Request{NamespacedName: client.ObjectKey{Name: name}}); err != nil {
			t.Fatal(err)
		}
		f := getFleet(t, name)
		if f.Status.CompletedRollouts != writers || len(f.Status.Conditions) != 1 || f.Status.Conditions[0].Status != "True" {
			t.Fatalf("round %d: fleet summary %+v, want %d completed and Ready", round, f.Status, writers)
		}
	}

	t.Run("blind MergeFrom loses entries", func(t *testing.T) {
		n, _ := run(t, "blind", func(c client.Client) reconcile.Reconciler {
			return &blind.RolloutReconciler{Client: c, Mode: blind.ModeMergeFrom}
		})
		if n == writers {
			t.Fatalf("blind joins kept all %d entries: the scenario does not race", writers)
		}
		t.Logf("blind MergeFrom: fleet kept %d of %d members", n, writers)
	})
}

// 5. Deletion.
func TestDeletion(t *testing.T) {
	t.Run("Flush after the object is gone is NotFound", func(t *testing.T) {
		key := newRollout(t, uniq("deletion"), "flush", "", false)
		p, err := patchers.FetchRolloutStatusPatcher(ctx, shared.Client, key)
		if err != nil {
			t.Fatal(err)
		}
		if err := shared.Client.Delete(ctx, p.Object().DeepCopy()); err != nil {
			t.Fatal(err)
		}
		p.Status().Phase = demov1.RolloutPlanning
		if err := p.Flush(ctx); !apierrors.IsNotFound(err) {
			t.Fatalf("Flush after delete: %v, want NotFound", err)
		}
	})

	t.Run("Flush after RemoveFinalizer deleted the object is NotFound", func(t *testing.T) {
		key := newRollout(t, uniq("deletion"), "remove-finalizer", "", true)
		if err := shared.Client.Delete(ctx, &demov1.Rollout{ObjectMeta: metaFor(key)}); err != nil {
			t.Fatal(err)
		}
		p, err := patchers.FetchRolloutStatusPatcher(ctx, shared.Client, key)
		if err != nil {
			t.Fatal(err)
		}
		if removed, err := p.RemoveFinalizer(ctx, controller.RolloutFinalizer); err != nil || !removed {
			t.Fatalf("RemoveFinalizer: %v, %v", removed, err)
		}
		p.Status().Phase = demov1.RolloutCompleted
		if err := p.Flush(ctx); !apierrors.IsNotFound(err) {
			t.Fatalf("Flush after the last finalizer went: %v, want NotFound", err)
		}
	})

	t.Run("finalizer path", func(t *testing.T) {
		fleet := uniq("deletion")
		newFleet(t, fleet, 1)
		key := newRollout(t, fleet, "finalizer", fleet, false)
		r := &controller.RolloutReconciler{Client: patcher.ForManager(explore.Clients{Client: shared.Client, APIReader: shared.Client}, patcher.WithFieldOwner(controller.FieldOwner))}
		req := ctrl.Request{NamespacedName: key}
		for range 6 {
			if _, err := r.Reconcile(ctx, req); err != nil {
				t.Fatal(err)
			}
		}
		ro := getRollout(t, key)
		if !slices.Contains(ro.Finalizers, controller.RolloutFinalizer) || len(getFleet(t, fleet).Status.Members) != 1 {
			t.Fatalf("before deletion: finalizers %v, fleet members %v", ro.Finalizers, getFleet(t, fleet).Status.Members)
		}
		if err := shared.Client.Delete(ctx, ro); err != nil {
			t.Fatal(err)
		}
		if _, err := r.Reconcile(ctx, req); err != nil {
			t.Fatalf("reconcile of the deleting object: %v", err)
		}
		if err := shared.Client.Get(ctx, key, &demov1.Rollout{}); !apierrors.IsNotFound(err) {
			t.Fatalf("object after the finalizer was removed: %v, want NotFound", err)
		}
		if m := getFleet(t, fleet).Status.Members; len(m) != 0 {
			t.Fatalf("fleet members after deletion: %v, want none", m)
		}
		if res, err := r.Reconcile(ctx, req); err != nil || res != (ctrl.Result{}) {
			t.Fatalf("reconcile of the deleted object: %+v, %v; want done", res, err)
		}
	})
}
