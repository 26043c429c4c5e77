package controller

import (
	"context"

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
	r.Client = mgr.GetClient()
	return ctrl.NewControllerManagedBy(mgr).For(&batchv1alpha1.Job{}).Named("jobs").Complete(r)
}
