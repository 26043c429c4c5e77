package controller

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"

	v1alpha1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
	rolloutac "github.com/statuspatch/statuspatch/examples/lintfixe2e/internal/ac"
)

// verifierOwner is the verifier's field owner, a client.FieldOwner
// constant as cybozu-go/accurate declares its own.
const verifierOwner client.FieldOwner = "rollout-verifier"

// verify reads the rollout and hands it to applyVerified, a helper that
// applies the status from what it is given (accurate's reconcileNS
// shape): -fix makes the patcher here, after the Get, in apply mode.
func (r *RolloutReconciler) verify(ctx context.Context, key client.ObjectKey) error {
	rollout := &v1alpha1.Rollout{}
	if err := r.Get(ctx, key, rollout); err != nil {
		return err
	}
	if rollout.Status.Plan == nil {
		return nil
	}
	return r.applyVerified(ctx, rollout)
}

// applyVerified co-owns the plan's version, which it only reads.
func (r *RolloutReconciler) applyVerified(ctx context.Context, rollout *v1alpha1.Rollout) error {
	ac := rolloutac.Rollout(rollout.Name, rollout.Namespace).
		WithStatus(rolloutac.RolloutStatus().WithPlan(rolloutac.RolloutPlan().WithVersion(rollout.Status.Plan.Version)))
	return r.Status().Apply(ctx, ac, verifierOwner, client.ForceOwnership)
}
