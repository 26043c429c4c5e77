package controller

import (
	"context"
	"fmt"

	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "example.com/widgets/api/v1"
	widgetsac "example.com/widgets/api/v1/applyconfiguration/api/v1"
)

// summarize applies the summary by server-side apply, with the apply
// configurations kubebuilder's --ssa generates, under a field owner of its
// own.
func (r *WidgetReconciler) summarize(ctx context.Context, key client.ObjectKey) error {
	var w widgetsv1.Widget
	if err := r.Client.Get(ctx, key, &w); err != nil {
		return err
	}
	ac := widgetsac.Widget(key.Name, key.Namespace).
		WithStatus(widgetsac.WidgetStatus().WithSummary(fmt.Sprintf("%d parts", len(w.Status.Parts))))
	return r.Client.Status().Apply(ctx, ac, client.FieldOwner("widget-summary"), client.ForceOwnership)
}
