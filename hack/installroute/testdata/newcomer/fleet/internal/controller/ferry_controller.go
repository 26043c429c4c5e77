package controller

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	widgetsv1 "example.com/widgets/api/v1"
)

// ferryTokens hands out the ferries' tokens.
var ferryTokens atomic.Int64

const (
	// ferryFinalizer is the finalizer the reconciler adds to each Ferry.
	ferryFinalizer = "widgets.example.com/ferry-finalizer"
	// typeAvailable is the condition saying whether the Ferry is reconciled.
	typeAvailable = "Available"
	// typeDegraded is the condition saying the Ferry is being deleted.
	typeDegraded = "Degraded"
)

// FerryReconciler gives each Ferry a token, its Reconcile written as
// kubebuilder's deploy-image tutorial writes it: the status set Unknown
// when it has no condition, written, and the Ferry read again; a
// finalizer, and the deletion branch's two writes around a re-read; a
// deferred write of the failure when
// Reconcile fails (a named error return); then the decision, written with
// a merge patch.
type FerryReconciler struct {
	Client client.Client
}

// SetupWithManager registers the reconciler.
func (r *FerryReconciler) SetupWithManager(mgr ctrl.Manager) error {
	r.Client = mgr.GetClient()
	return ctrl.NewControllerManagedBy(mgr).For(&widgetsv1.Ferry{}).Complete(r)
}

// +kubebuilder:rbac:groups=widgets.example.com,resources=ferries,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=widgets.example.com,resources=ferries/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=widgets.example.com,resources=ferries/finalizers,verbs=update

// Reconcile hands out the ferry's token once and says it is Available.
func (r *FerryReconciler) Reconcile(ctx context.Context, req ctrl.Request) (_ ctrl.Result, retErr error) {
	ferry := &widgetsv1.Ferry{}
	if err := r.Client.Get(ctx, req.NamespacedName, ferry); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	// The status is Unknown until the ferry is reconciled; re-fetch after
	// updating it, so that the next write starts from the latest state.
	if len(ferry.Status.Conditions) == 0 {
		meta.SetStatusCondition(&ferry.Status.Conditions, metav1.Condition{Type: typeAvailable, Status: metav1.ConditionUnknown, Reason: "Reconciling", Message: "Starting reconciliation"})
		if err := r.Client.Status().Update(ctx, ferry); err != nil {
			return ctrl.Result{}, err
		}
		if err := r.Client.Get(ctx, req.NamespacedName, ferry); err != nil {
			return ctrl.Result{}, err
		}
	}
	if !controllerutil.ContainsFinalizer(ferry, ferryFinalizer) {
		controllerutil.AddFinalizer(ferry, ferryFinalizer)
		if err := r.Client.Update(ctx, ferry); err != nil {
			return ctrl.Result{}, err
		}
	}
	// The ferry is being deleted: say so, finish, say it is done, and let
	// it go.
	if ferry.GetDeletionTimestamp() != nil {
		if controllerutil.ContainsFinalizer(ferry, ferryFinalizer) {
			meta.SetStatusCondition(&ferry.Status.Conditions, metav1.Condition{Type: typeDegraded, Status: metav1.ConditionUnknown, Reason: "Finalizing", Message: "Performing finalizer operations"})
			if err := r.Client.Status().Update(ctx, ferry); err != nil {
				return ctrl.Result{}, err
			}
			// Re-fetch before updating the status, so that the update
			// starts from the latest state.
			if err := r.Client.Get(ctx, req.NamespacedName, ferry); err != nil {
				return ctrl.Result{}, err
			}
			meta.SetStatusCondition(&ferry.Status.Conditions, metav1.Condition{Type: typeDegraded, Status: metav1.ConditionTrue, Reason: "Finalizing", Message: "Finalizer operations done"})
			if err := r.Client.Status().Update(ctx, ferry); err != nil {
				return ctrl.Result{}, err
			}
			controllerutil.RemoveFinalizer(ferry, ferryFinalizer)
			if err := r.Client.Update(ctx, ferry); err != nil {
				return ctrl.Result{}, err
			}
		}
		return ctrl.Result{}, nil
	}
	defer func() {
		if retErr == nil {
			return
		}
		meta.SetStatusCondition(&ferry.Status.Conditions, metav1.Condition{Type: typeAvailable, Status: metav1.ConditionFalse, Reason: "ReconcileFailed", Message: retErr.Error()})
		if err := r.Client.Status().Update(ctx, ferry); err != nil {
			retErr = errors.Join(retErr, err)
		}
	}()
	base := ferry.DeepCopy()
	if ferry.Status.Token == "" {
		ferry.Status.Token = fmt.Sprintf("F-%d", ferryTokens.Add(1))
	}
	meta.SetStatusCondition(&ferry.Status.Conditions, metav1.Condition{Type: typeAvailable, Status: metav1.ConditionTrue, Reason: "Boarding", Message: "Token handed out"})
	if err := r.Client.Status().Patch(ctx, ferry, client.MergeFrom(base)); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}
