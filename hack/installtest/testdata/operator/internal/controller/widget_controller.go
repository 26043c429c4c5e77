// Package controller holds the install test operator's reconciler: every
// status write goes through the generated WidgetStatusPatcher, in
// internal/patchers (statuspatch-gen output:dir, the recommended layout).
package controller

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher"

	widgetsv1 "example.com/widgets/api/v1"
	"example.com/widgets/internal/patchers"
)

// WidgetReconciler names one part per unit of spec.size in the status.
type WidgetReconciler struct {
	Client client.Client
}

// SetupWithManager gives the reconciler the manager's client carrying the
// patchers' defaults (the manager's API reader), as README.md shows.
func (r *WidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	r.Client = patcher.ForManager(mgr, patcher.WithFieldOwner("widget-controller"))
	return ctrl.NewControllerManagedBy(mgr).For(&widgetsv1.Widget{}).Complete(r)
}

// +kubebuilder:rbac:groups=widgets.example.com,resources=widgets,verbs=get;list;watch
// +kubebuilder:rbac:groups=widgets.example.com,resources=widgets/status,verbs=get;update;patch

// Reconcile writes the parts list, Ready and observedGeneration in one patch.
func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	p, err := patchers.FetchWidgetStatusPatcher(ctx, r.Client, req.NamespacedName)
	if err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	err = p.Retry(ctx, func(w *widgetsv1.Widget) error {
		w.Status.Parts = nil
		for i := range w.Spec.Size {
			w.Status.Parts = append(w.Status.Parts, fmt.Sprintf("%s-%d", w.Name, i))
		}
		return nil
	})
	if err != nil {
		return ctrl.Result{}, err
	}
	p.MarkObserved()
	p.SetCondition(metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "PartsNamed"})
	return ctrl.Result{}, p.Flush(ctx)
}
