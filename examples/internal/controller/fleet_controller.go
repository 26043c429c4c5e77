package controller

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"

	"github.com/statuspatch/statuspatch/patcher"

	demov1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
	"github.com/statuspatch/statuspatch/examples/internal/patchers"
)

// FleetReconciler keeps a Fleet's summary (completedRollouts, the Ready
// condition, observedGeneration) in step with its members, which the
// Rollout controller writes concurrently.
type FleetReconciler struct {
	// Client reads (usually from the manager's cache) and writes; made with
	// patcher.ForManager(mgr, opts...) (NewFleetReconciler does), its
	// patchers get the manager's API reader for Retry, the field owner, and
	// any other options it carries.
	Client client.Client
}

// NewFleetReconciler returns the reconciler the operator runs on mgr, with
// patcher.ForManager's defaults.
func NewFleetReconciler(mgr ctrl.Manager) *FleetReconciler {
	return &FleetReconciler{Client: patcher.ForManager(mgr, patcher.WithFieldOwner(FieldOwner))}
}

// +kubebuilder:rbac:groups=demo.statuspatch.dev,resources=fleets,verbs=get;list;watch
// +kubebuilder:rbac:groups=demo.statuspatch.dev,resources=fleets/status,verbs=get;update;patch

// Reconcile recomputes the summary of one Fleet.
func (r *FleetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	p, err := patchers.FetchFleetStatusPatcher(ctx, r.Client, req.NamespacedName)
	if err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	// The summary is derived from the members in the object being written:
	// inside Retry a conflict (a rollout joined meanwhile) recomputes it from
	// the fresh members. The Fleet's conditions are its own type, so they are
	// set with setFleetCondition rather than a generated SetCondition.
	err = p.Retry(ctx, func(f *demov1.Fleet) error {
		n := int32(len(f.Status.Members))
		f.Status.CompletedRollouts = n
		cond := demov1.FleetCondition{Type: demov1.FleetReady, Status: metav1.ConditionFalse, Reason: "WaitingForRollouts",
			Message: fmt.Sprintf("%d of %d rollouts completed", n, f.Spec.MinCompleted)}
		if n >= f.Spec.MinCompleted {
			cond.Status, cond.Reason = metav1.ConditionTrue, "EnoughRolloutsCompleted"
			cond.Message = fmt.Sprintf("%d rollouts completed (minimum %d)", n, f.Spec.MinCompleted)
		}
		setFleetCondition(&f.Status.Conditions, cond)
		p.MarkObserved()
		return nil
	})
	return requeueOnConflict(ctx, client.IgnoreNotFound(err))
}

// SetupWithManager registers the controller with mgr.
func (r *FleetReconciler) SetupWithManager(mgr ctrl.Manager, opts controller.Options) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&demov1.Fleet{}).
		Named("fleet").
		WithOptions(opts).
		Complete(r)
}

// setFleetCondition sets c in conditions, keeping LastTransitionTime when
// the status did not change, and reports whether anything changed.
func setFleetCondition(conditions *[]demov1.FleetCondition, c demov1.FleetCondition) bool {
	for i := range *conditions {
		old := &(*conditions)[i]
		if old.Type != c.Type {
			continue
		}
		if old.Status == c.Status && old.Reason == c.Reason && old.Message == c.Message {
			return false
		}
		if old.Status == c.Status {
			c.LastTransitionTime = old.LastTransitionTime
		} else {
			c.LastTransitionTime = metav1.Now()
		}
		*old = c
		return true
	}
	c.LastTransitionTime = metav1.Now()
	*conditions = append(*conditions, c)
	return true
}
