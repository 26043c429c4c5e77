// Package migrateimports: a file whose imports are grouped as goimports
// -local groups them (the standard library, other modules, the module's
// own packages). -fix adds each import to its kind's group: the patcher
// runtime among the other modules', the generated patchers among the
// module's own.
package migrateimports

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/op/api/v1"
	widgetac "example.com/op/api/v1/ac"
)

type WidgetReconciler struct {
	client.Client
}

// Fetched: kubebuilder's --ssa example after its fetch; moved.
func (r *WidgetReconciler) Fetched(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var widget v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	app := widgetac.Widget(req.Name, req.Namespace).
		WithStatus(widgetac.WidgetStatus().WithReady(widget.Spec.Size > 0))
	if err := r.Status().Apply(ctx, app, client.FieldOwner("widget-controller"), client.ForceOwnership); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}
