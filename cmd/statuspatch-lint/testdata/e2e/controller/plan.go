package controller

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"

	v1alpha1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
	rolloutac "github.com/statuspatch/statuspatch/examples/lintfixe2e/internal/ac"
)

// plan applies the rollout's plan by server-side apply, as kubebuilder's
// --ssa reconcilers write status: an apply configuration named after the
// fetched rollout, under the planner's own field owner, forcing
// ownership.
func (r *RolloutReconciler) plan(ctx context.Context, key client.ObjectKey) error {
	var rollout v1alpha1.Rollout
	if err := r.Get(ctx, key, &rollout); err != nil {
		return err
	}
	ac := rolloutac.Rollout(key.Name, key.Namespace).
		WithStatus(rolloutac.RolloutStatus().WithPlan(rolloutac.RolloutPlan().
			WithID(rollout.Spec.Version+"-plan").WithGeneration(rollout.Generation).
			WithVersion(rollout.Spec.Version).WithSteps("canary", "full")))
	return r.Status().Apply(ctx, ac, client.FieldOwner("rollout-planner"), client.ForceOwnership)
}
