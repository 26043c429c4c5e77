package explore_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	crcontroller "sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	demov1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
	"github.com/statuspatch/statuspatch/examples/internal/controller"
)

// The operator as main.go runs it, on a real manager: Rollouts converge
// (plan built and completed, Ready, observedGeneration), the Fleet collects
// them, a spec change replans, and deletion goes through the finalizer.
func TestManagerConverges(t *testing.T) {
	const n = 10
	ns, fleet := uniq("manager"), uniq("manager")
	mgr, err := shared.NewManager(manager.Options{
		Cache:      cache.Options{DefaultNamespaces: map[string]cache.Config{ns: {}}},
		Controller: config.Controller{SkipNameValidation: ptr.To(true)},
	})
	if err != nil {
		t.Fatal(err)
	}
	opts := crcontroller.Options{MaxConcurrentReconciles: 4}
	if err := controller.NewRolloutReconciler(mgr).SetupWithManager(mgr, opts); err != nil {
		t.Fatal(err)
	}
	if err := controller.NewFleetReconciler(mgr).SetupWithManager(mgr, opts); err != nil {
		t.Fatal(err)
	}
	mctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- mgr.Start(mctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("manager: %v", err)
		}
	})

	newFleet(t, fleet, n)
	keys := make([]client.ObjectKey, n)
	for i := range keys {
		keys[i] = newRollout(t, ns, fmt.Sprintf("r%d", i), fleet, false)
	}

	converged := func(ro *demov1.Rollout) error {
		st := ro.Status
		switch {
		case st.Plan == nil || st.Plan.Generation != ro.Generation:
			return fmt.Errorf("no plan for generation %d", ro.Generation)
		case st.Phase != demov1.RolloutCompleted || int(st.CompletedSteps) != len(st.Plan.Steps):
			return fmt.Errorf("phase %s, %d of %d steps", st.Phase, st.CompletedSteps, len(st.Plan.Steps))
		case !meta.IsStatusConditionTrue(st.Conditions, controller.ConditionReady):
			return fmt.Errorf("not Ready: %+v", st.Conditions)
		case st.ObservedGeneration != ro.Generation:
			return fmt.Errorf("observedGeneration %d, generation %d", st.ObservedGeneration, ro.Generation)
		case !ro.DeletionTimestamp.IsZero() || len(ro.Finalizers) != 1:
			return fmt.Errorf("finalizers %v", ro.Finalizers)
		}
		return nil
	}
	fleetHas := func(want map[string]string) error {
		f := getFleet(t, fleet)
		got := map[string]string{}
		for _, m := range f.Status.Members {
			got[m.Rollout] = m.PlanID
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			return fmt.Errorf("fleet members %v, want %v", got, want)
		}
		if int(f.Status.CompletedRollouts) != len(want) || f.Status.ObservedGeneration != f.Generation {
			return fmt.Errorf("fleet summary %+v", f.Status)
		}
		return nil
	}
	waitFor := func(what string, check func() error) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for {
			err := check()
			if err == nil {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: %v", what, err)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	members := func() map[string]string {
		m := map[string]string{}
		for _, key := range keys {
			if ro := (&demov1.Rollout{}); shared.Client.Get(ctx, key, ro) == nil {
				m[key.String()] = ro.Status.Plan.ID
			}
		}
		return m
	}

	waitFor("rollouts converge", func() error {
		for _, key := range keys {
			if err := converged(getRollout(t, key)); err != nil {
				return fmt.Errorf("%s: %w", key, err)
			}
		}
		return nil
	})
	waitFor("fleet collects every rollout", func() error { return fleetHas(members()) })
	if f := getFleet(t, fleet); !isTrue(f.Status.Conditions) {
		t.Fatalf("fleet not Ready: %+v", f.Status.Conditions)
	}

	// A spec change replans: a new plan for generation 2, run to completion,
	// and the Fleet entry follows.
	ro := getRollout(t, keys[0])
	oldPlan := ro.Status.Plan.ID
	ro.Spec.Version = "v2"
	if err := shared.Client.Update(ctx, ro); err != nil {
		t.Fatal(err)
	}
	waitFor("replan", func() error {
		ro := getRollout(t, keys[0])
		if err := converged(ro); err != nil {
			return err
		}
		if ro.Generation != 2 || ro.Status.Plan.ID == oldPlan || ro.Status.Plan.Version != "v2" {
			return fmt.Errorf("generation %d plan %+v", ro.Generation, ro.Status.Plan)
		}
		return nil
	})
	waitFor("fleet follows the new plan", func() error { return fleetHas(members()) })

	// Deletion: the finalizer takes the rollout out of the Fleet, then it goes.
	if err := shared.Client.Delete(ctx, getRollout(t, keys[1])); err != nil {
		t.Fatal(err)
	}
	waitFor("deleted rollout is gone", func() error {
		err := shared.Client.Get(ctx, keys[1], &demov1.Rollout{})
		switch {
		case err == nil:
			return errors.New("still there")
		case !apierrors.IsNotFound(err):
			return fmt.Errorf("get: %w", err)
		}
		return nil
	})
	waitFor("fleet drops the deleted rollout", func() error { return fleetHas(members()) })
	if f := getFleet(t, fleet); isTrue(f.Status.Conditions) {
		t.Fatalf("fleet Ready with %d of %d: %+v", f.Status.CompletedRollouts, n, f.Status.Conditions)
	}
}

func isTrue(conds []demov1.FleetCondition) bool {
	for _, c := range conds {
		if c.Type == demov1.FleetReady {
			return c.Status == "True"
		}
	}
	return false
}
