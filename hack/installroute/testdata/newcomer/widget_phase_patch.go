package controller

import (
	"context"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "example.com/widgets/api/v1"
	"example.com/widgets/internal/status"
)

// checkSize marks a widget of a negative size Failed, through the status
// package's helper.
func (r *WidgetReconciler) checkSize(ctx context.Context, key client.ObjectKey) error {
	w := &widgetsv1.Widget{}
	if err := r.Client.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Spec.Size >= 0 {
		return nil
	}
	return status.MarkFailed(ctx, r.Client, w, "NegativeSize")
}

// phase applies the phase by server-side apply of an unstructured object
// (client.Apply: this controller-runtime's status writer has no Apply),
// under a field owner of its own.
func (r *WidgetReconciler) phase(ctx context.Context, key client.ObjectKey) error {
	var widget widgetsv1.Widget
	if err := r.Client.Get(ctx, key, &widget); err != nil {
		return err
	}
	u := &unstructured.Unstructured{}
	u.SetAPIVersion(widgetsv1.GroupVersion.String())
	u.SetKind("Widget")
	u.SetName(widget.Name)
	u.SetNamespace(widget.Namespace)
	if err := unstructured.SetNestedField(u.Object, "Ready", "status", "phase"); err != nil {
		return err
	}
	return r.Client.Status().Patch(ctx, u, client.Apply, client.FieldOwner("widget-phase"), client.ForceOwnership)
}
