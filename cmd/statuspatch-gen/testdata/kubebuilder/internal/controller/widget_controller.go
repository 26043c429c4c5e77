// Package controller holds the reconciler, as kubebuilder scaffolds it,
// calling the patchers generated into internal/patchers.
package controller

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"example.com/kbproject/internal/patchers"
)

// WidgetReconciler reconciles a Widget object.
type WidgetReconciler struct {
	client.Client
}

// +kubebuilder:rbac:groups=batch.kb.example.com,resources=widgets,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=batch.kb.example.com,resources=widgets/status,verbs=get;update;patch

// Reconcile marks the Widget observed and ready.
func (r *WidgetReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	p, err := patchers.FetchWidgetStatusPatcher(ctx, r.Client, req.NamespacedName)
	if err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	p.MarkObserved()
	p.SetCondition(metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Reconciled"})
	return reconcile.Result{}, p.Flush(ctx)
}
