// Package controller holds a cluster-scoped kind's reconciler with a named
// Client field and no Scheme.
package controller

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// WidgetReconciler reconciles a Widget.
type WidgetReconciler struct {
	Client client.Client
}

// Reconcile does nothing yet.
func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return ctrl.Result{}, nil
}
