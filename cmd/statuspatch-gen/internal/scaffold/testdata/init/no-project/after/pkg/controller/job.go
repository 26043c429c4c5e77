package controller

import (
	"context"

	"github.com/statuspatch/statuspatch/patcher"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	batchv1alpha1 "example.com/jobqueue/pkg/apis/batch/v1alpha1"
)

// JobReconciler runs Jobs.
type JobReconciler struct {
	Client client.Client
}

func (r *JobReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return ctrl.Result{}, nil
}

func (r *JobReconciler) SetupWithManager(mgr ctrl.Manager) error {
	// The manager's client carrying the status patchers' defaults: its API
	// reader for fresh reads, and this controller's name as the field owner
	// (statuspatch-gen init; README.md's "Using it").
	r.Client = patcher.ForManager(mgr, patcher.WithFieldOwner("jobs"))
	return ctrl.NewControllerManagedBy(mgr).For(&batchv1alpha1.Job{}).Named("jobs").Complete(r)
}
