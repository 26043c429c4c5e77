package controller

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "example.com/widgets/api/v1"
)

// shipTokens hands out the ships' tokens.
var shipTokens atomic.Int64

// ShipReconciler gives each Ship a token, written when Reconcile returns
// (a deferred write, kubebuilder's tutorial's named error return).
type ShipReconciler struct {
	Client client.Client
}

// SetupWithManager registers the reconciler.
func (r *ShipReconciler) SetupWithManager(mgr ctrl.Manager) error {
	r.Client = mgr.GetClient()
	return ctrl.NewControllerManagedBy(mgr).For(&widgetsv1.Ship{}).Complete(r)
}

// +kubebuilder:rbac:groups=widgets.example.com,resources=ships,verbs=get;list;watch
// +kubebuilder:rbac:groups=widgets.example.com,resources=ships/status,verbs=get;update;patch

// Reconcile hands out the ship's token once; the deferred write records it.
func (r *ShipReconciler) Reconcile(ctx context.Context, req ctrl.Request) (_ ctrl.Result, retErr error) {
	ship := &widgetsv1.Ship{}
	if err := r.Client.Get(ctx, req.NamespacedName, ship); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		if err := r.Client.Status().Update(ctx, ship); err != nil {
			retErr = errors.Join(retErr, err)
		}
	}()
	if ship.Status.Token == "" {
		ship.Status.Token = fmt.Sprintf("S-%d", shipTokens.Add(1))
	}
	return ctrl.Result{}, nil
}
