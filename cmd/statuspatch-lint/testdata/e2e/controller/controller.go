// Package controller reconciles Rollouts with handwritten status writes:
// a merge patch from a copy, an Update after a fresh read, a helper in a
// file that imports the client package only for its MergeFrom, a
// write-only helper its caller hands a copy of a read (helper.go), a
// server-side apply of an apply configuration (plan.go), and one in a
// helper its caller hands the object it read (verify.go). complete hands
// the object to a reader of another package (describe).
package controller

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	v1alpha1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
	"github.com/statuspatch/statuspatch/examples/lintfixe2e/describe"
)

// RolloutReconciler plans a Rollout, then completes it.
type RolloutReconciler struct {
	client.Client
}

func (r *RolloutReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	rollout := &v1alpha1.Rollout{}
	if err := r.Get(ctx, req.NamespacedName, rollout); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	base := rollout.DeepCopy()
	rollout.Status.ObservedGeneration = rollout.Generation
	rollout.Status.Phase = v1alpha1.RolloutPlanning
	meta.SetStatusCondition(&rollout.Status.Conditions, metav1.Condition{
		Type: "Planned", Status: metav1.ConditionFalse, Reason: "Planning", Message: "planning " + rollout.Spec.Version,
	})
	if err := r.Status().Patch(ctx, rollout, client.MergeFrom(base)); err != nil {
		return reconcile.Result{}, err
	}
	if err := r.complete(ctx, req.NamespacedName); err != nil {
		return reconcile.Result{}, err
	}
	done := &v1alpha1.Rollout{}
	if err := r.Get(ctx, req.NamespacedName, done); err != nil {
		return reconcile.Result{}, err
	}
	if err := r.countSteps(ctx, done); err != nil {
		return reconcile.Result{}, err
	}
	if err := r.plan(ctx, req.NamespacedName); err != nil {
		return reconcile.Result{}, err
	}
	if err := r.verify(ctx, req.NamespacedName); err != nil {
		return reconcile.Result{}, err
	}
	return reconcile.Result{}, r.markReady(ctx, req.NamespacedName)
}

// complete marks the rollout completed, on a fresh read.
func (r *RolloutReconciler) complete(ctx context.Context, key client.ObjectKey) error {
	rollout := &v1alpha1.Rollout{}
	if err := r.Get(ctx, key, rollout); err != nil {
		return err
	}
	rollout.Status.Phase = v1alpha1.RolloutCompleted
	rollout.Status.CompletedSteps = describe.Steps(rollout) // another package's reader
	return r.Status().Update(ctx, rollout)
}
