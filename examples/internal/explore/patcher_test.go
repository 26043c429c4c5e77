package explore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv/explore"

	demov1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
	"github.com/statuspatch/statuspatch/examples/internal/controller"
)

// TestPatcherReconcilersPass: the statuspatch Rollout and Fleet reconcilers,
// two rollouts joining one fleet, under every schedule the budget allows:
// nothing lost, one plan built per rollout, every rollout in the fleet.
func TestPatcherReconcilersPass(t *testing.T) {
	res := explore.Check(t, patcherScenario(), explore.Options{Backend: explore.Server(shared), Depth: 3, Budget: 12 * time.Second})
	t.Logf("%.0f schedules/s", float64(res.Schedules)/res.Elapsed.Seconds())
}

// TestPatcherReconcilersPassFake: the same on the fake client, faster.
func TestPatcherReconcilersPassFake(t *testing.T) {
	o := explore.Options{Backend: explore.Fake(scheme, &demov1.Rollout{}, &demov1.Fleet{}), Depth: 3, Budget: 4 * time.Second}
	res := explore.Check(t, patcherScenario(), o)
	t.Logf("%.0f schedules/s", float64(res.Schedules)/res.Elapsed.Seconds())
}

func patcherScenario() explore.Scenario {
	var built map[client.ObjectKey]int
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{
			{Name: "rollout", For: &demov1.Rollout{}, New: func(c client.Client, api client.Reader) reconcile.Reconciler {
				built = map[client.ObjectKey]int{}
				return &controller.RolloutReconciler{Client: patcher.ForManager(explore.Clients{Client: c, APIReader: api}, patcher.WithFieldOwner(controller.FieldOwner)),
					NewPlanID: counter("plan-"),
					OnPlan: func(key client.ObjectKey, _ string, b bool) {
						if b {
							built[key]++
						}
					}}
			}},
			{Name: "fleet", For: &demov1.Fleet{}, New: func(c client.Client, api client.Reader) reconcile.Reconciler {
				return &controller.FleetReconciler{Client: patcher.ForManager(explore.Clients{Client: c, APIReader: api}, patcher.WithFieldOwner(controller.FieldOwner))}
			}},
		},
		Objects: []client.Object{
			&demov1.Fleet{ObjectMeta: metav1.ObjectMeta{Name: "fleet-p"}, Spec: demov1.FleetSpec{MinCompleted: 2}},
			rollout("a", "fleet-p"), rollout("b", "fleet-p"),
		},
		Invariant: func(ctx context.Context, r client.Reader) error {
			for key, n := range built {
				if n != 1 {
					return fmt.Errorf("%s: %d plans built, want 1", key, n)
				}
			}
			f := &demov1.Fleet{}
			if err := r.Get(ctx, client.ObjectKey{Name: "fleet-p"}, f); err != nil {
				return err
			}
			if len(f.Status.Members) != 2 || f.Status.CompletedRollouts != 2 {
				return fmt.Errorf("fleet-p: members %v, completedRollouts %d, want both rollouts", f.Status.Members, f.Status.CompletedRollouts)
			}
			return nil
		},
	}
}
