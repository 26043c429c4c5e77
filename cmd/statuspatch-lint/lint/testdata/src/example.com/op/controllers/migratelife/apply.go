package migratelife

import (
	"context"

	v1 "example.com/op/api/v1"
	widgetac "example.com/op/api/v1/ac"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A server-side apply of the object after a merge write of it in one
// life: a patcher is in apply mode or merge mode, and two alive at once
// would conflict. The Update moves onto the patcher made at the Get; the
// apply onto one in apply mode made right before it, after the Update
// (issue 80 A3).
func (r *OrderReconciler) applyBeside(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	order.Status.Ready = true
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	return r.Status().Apply(ctx, widgetac.Widget(order.Name, order.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(3)), client.FieldOwner("me"), client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode`
}

// The apply before the merge write: an apply-mode patcher made before it
// would be alive at once with the Update's. The Update moves; the apply
// stays, naming the write.
func (r *OrderReconciler) applyBefore(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	if err := r.Status().Apply(ctx, widgetac.Widget(order.Name, order.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(3)), client.FieldOwner("me"), client.ForceOwnership); err != nil { // want `\(not moved to the patcher: order's status is also written at line 41 \(Status\(\)\.Update\): a patcher in apply mode made at the read for this write would be alive at once with that write's`
		return err
	}
	order.Status.Ready = true
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// The Update's error only printed: the apply stays, a lock of a write
// that may have failed being a Conflict every time it did.
func (r *OrderReconciler) applyLogged(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	order.Status.Ready = true
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		println("update failed", err.Error())
	}
	return r.Status().Apply(ctx, widgetac.Widget(order.Name, order.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(3)), client.FieldOwner("me"), client.ForceOwnership) // want `\(not moved to the patcher: order's status is also written at line 52 \(Status\(\)\.Update\), whose error does not return from the function: a patcher in apply mode made after it would take the lock of a write that may not have happened`
}

// The Update in a function literal called after the apply: the apply
// stays.
func (r *OrderReconciler) applyClosure(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	mark := func() error {
		order.Status.Ready = true
		return r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
	}
	if err := r.Status().Apply(ctx, widgetac.Widget(order.Name, order.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(3)), client.FieldOwner("me"), client.ForceOwnership); err != nil { // want `\(not moved to the patcher: order's status is also written at line 67 \(Status\(\)\.Update\), in the function literal at line 65, which may run after the apply or not at all`
		return err
	}
	return mark()
}
