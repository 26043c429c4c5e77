package controller

import (
	"context"
	"fmt"
	"sync/atomic"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "example.com/widgets/api/v1"
)

// voyageTokens hands out the voyages' tokens.
var voyageTokens atomic.Int64

// VoyageReconciler runs a Voyage through its phases, functions held as
// values, and writes the status once after them.
type VoyageReconciler struct {
	Client client.Client
}

// SetupWithManager registers the reconciler.
func (r *VoyageReconciler) SetupWithManager(mgr ctrl.Manager) error {
	r.Client = mgr.GetClient()
	return ctrl.NewControllerManagedBy(mgr).For(&widgetsv1.Voyage{}).Complete(r)
}

// +kubebuilder:rbac:groups=widgets.example.com,resources=voyages,verbs=get;list;watch
// +kubebuilder:rbac:groups=widgets.example.com,resources=voyages/status,verbs=get;update;patch

// Reconcile runs the phases until one says stop, then writes the status.
func (r *VoyageReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	voyage := &widgetsv1.Voyage{}
	if err := r.Client.Get(ctx, req.NamespacedName, voyage); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	for _, phase := range []func(*widgetsv1.Voyage) bool{r.board, r.sail} {
		if !phase(voyage) {
			break
		}
	}
	return ctrl.Result{}, r.Client.Status().Update(ctx, voyage)
}

// board hands out the voyage's token once.
func (r *VoyageReconciler) board(v *widgetsv1.Voyage) bool {
	if v.Status.Token == "" {
		v.Status.Token = fmt.Sprintf("V-%d", voyageTokens.Add(1))
	}
	return true
}

// sail records the phase.
func (r *VoyageReconciler) sail(v *widgetsv1.Voyage) bool {
	v.Status.Phase = "Sailing"
	return true
}
