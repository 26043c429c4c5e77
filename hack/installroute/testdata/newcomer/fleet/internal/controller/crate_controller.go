package controller

import (
	"context"
	"fmt"
	"sync/atomic"

	"k8s.io/client-go/util/retry"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "example.com/widgets/api/v1"
)

// crateTokens hands out the crates' tokens.
var crateTokens atomic.Int64

// CrateReconciler gives each Crate a token, retrying on a conflict as
// client-go's retry.RetryOnConflict does.
type CrateReconciler struct {
	Client client.Client
}

// SetupWithManager registers the reconciler.
func (r *CrateReconciler) SetupWithManager(mgr ctrl.Manager) error {
	r.Client = mgr.GetClient()
	return ctrl.NewControllerManagedBy(mgr).For(&widgetsv1.Crate{}).Complete(r)
}

// +kubebuilder:rbac:groups=widgets.example.com,resources=crates,verbs=get;list;watch
// +kubebuilder:rbac:groups=widgets.example.com,resources=crates/status,verbs=get;update;patch

// Reconcile hands out the crate's token once.
func (r *CrateReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	crate := &widgetsv1.Crate{}
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := r.Client.Get(ctx, req.NamespacedName, crate); err != nil {
			return err
		}
		if crate.Status.Token == "" {
			crate.Status.Token = fmt.Sprintf("C-%d", crateTokens.Add(1))
		}
		return r.Client.Status().Update(ctx, crate)
	})
	return ctrl.Result{}, client.IgnoreNotFound(err)
}
