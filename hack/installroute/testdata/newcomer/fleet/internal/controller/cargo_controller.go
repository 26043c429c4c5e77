package controller

import (
	"context"
	"fmt"
	"sync/atomic"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "example.com/widgets/api/v1"
)

// cargoTokens hands out the cargos' tokens.
var cargoTokens atomic.Int64

// CargoReconciler gives each Cargo a token through patchStatus.
type CargoReconciler struct {
	Client client.Client
}

// SetupWithManager registers the reconciler.
func (r *CargoReconciler) SetupWithManager(mgr ctrl.Manager) error {
	r.Client = mgr.GetClient()
	return ctrl.NewControllerManagedBy(mgr).For(&widgetsv1.Cargo{}).Complete(r)
}

// +kubebuilder:rbac:groups=widgets.example.com,resources=cargoes,verbs=get;list;watch
// +kubebuilder:rbac:groups=widgets.example.com,resources=cargoes/status,verbs=get;update;patch

// Reconcile hands out the cargo's token once.
func (r *CargoReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	cargo := &widgetsv1.Cargo{}
	if err := r.Client.Get(ctx, req.NamespacedName, cargo); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return ctrl.Result{}, patchStatus(ctx, r.Client, cargo, func(c *widgetsv1.Cargo) {
		if c.Status.Token == "" {
			c.Status.Token = fmt.Sprintf("K-%d", cargoTokens.Add(1))
		}
	})
}

// patchStatus patches obj's status with what mutate changes.
func patchStatus[T client.Object](ctx context.Context, c client.Client, obj T, mutate func(T)) error {
	base := obj.DeepCopyObject().(T)
	mutate(obj)
	return c.Status().Patch(ctx, obj, client.MergeFrom(base))
}
