package controller

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"

	v1alpha1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
)

// countSteps records one more completed step than the spec names: the
// rollout's final check.
func (r *RolloutReconciler) countSteps(ctx context.Context, ro *v1alpha1.Rollout) error {
	base := ro.DeepCopy()
	ro.Status.CompletedSteps = ro.Spec.Steps + 1
	return r.Status().Patch(ctx, ro, client.MergeFrom(base))
}
