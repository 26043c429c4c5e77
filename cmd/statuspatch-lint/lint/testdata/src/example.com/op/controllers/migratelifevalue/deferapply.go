package migratelifevalue

import (
	"context"

	v1 "example.com/op/api/v1"
	widgetac "example.com/op/api/v1/ac"
	"github.com/go-logr/logr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A deferred literal changes the status and only logs it: it runs as the
// function returns, after the apply, so its change is not one the apply
// would have to send. The apply moves onto a patcher in apply mode (at
// cc13c6a it stayed: "order.Status.Ready is changed at line 25: apply
// mode applies only the configuration", the deferred line taken as if it
// ran before the apply).
func (r *OrderReconciler) deferChangeApply(ctx context.Context, req ctrl.Request) (retErr error) {
	var order v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return err
	}
	defer func() {
		if retErr != nil {
			order.Status.Ready = false
			logr.FromContextOrDiscard(ctx).Info("not ready", "ready", order.Status.Ready)
		}
	}()
	return r.Status().Apply(ctx, widgetac.Widget(order.Name, order.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(3)), client.FieldOwner("me"), client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\("me"\)$`
}

// A literal called before the apply changes the status: it runs there,
// and the apply stays, naming the line.
func (r *OrderReconciler) litChangeApply(ctx context.Context, req ctrl.Request) error {
	var order v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return err
	}
	mark := func() { order.Status.Ready = false }
	mark()
	return r.Status().Apply(ctx, widgetac.Widget(order.Name, order.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(3)), client.FieldOwner("me"), client.ForceOwnership) // want `\(not moved to the patcher: order.Status.Ready is changed at line 40: apply mode applies only the configuration\)$`
}

// A deferred literal changes the spec, and only logs: it runs after the
// Update, whose patcher has flushed by then. The Update moves.
func (r *OrderReconciler) deferSpecAfter(ctx context.Context, req ctrl.Request) error {
	var order v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return err
	}
	defer func() {
		order.Spec.Size = 0
		logr.FromContextOrDiscard(ctx).Info("done", "size", order.Spec.Size)
	}()
	order.Status.Ready = true
	return r.Status().Update(ctx, &order) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}
