package migratelifevalue

import (
	"context"
	"errors"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
)

// kubebuilder's CronJob tutorial: a function literal held in a local
// (getNextSchedule) is given &order between the read and the re-read. Its
// body only reads order, so the re-read assigns the first patcher again,
// and so does the re-read after it: one patcher all along.
func (r *OrderReconciler) rereadAfterLiteral(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var order v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return ctrl.Result{}, err
	}
	next := func(order *v1.Widget, n int) (int, error) {
		if order.Spec.Size < 0 {
			return 0, errors.New("negative size")
		}
		return order.Spec.Size + n, nil
	}
	order.Status.Ready = true
	if err := r.Status().Update(ctx, &order); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	size, err := next(&order, 1)
	if err != nil {
		if fetchErr := r.Get(ctx, req.NamespacedName, &order); fetchErr != nil {
			return ctrl.Result{}, fetchErr
		}
		order.Status.Ready = false
		if err := r.Status().Update(ctx, &order); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, err
	}
	if fetchErr := r.Get(ctx, req.NamespacedName, &order); fetchErr != nil {
		return ctrl.Result{}, fetchErr
	}
	order.Status.Size = order.Spec.Size + 1
	_ = size
	return ctrl.Result{}, r.Status().Update(ctx, &order) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// The literal writes the status of the object it is given, a write that
// takes the patcher made before the re-read: the re-read keeps a patcher
// of its own, over the value as read again.
func (r *OrderReconciler) rereadAfterWritingLiteral(ctx context.Context, req ctrl.Request) error {
	var order v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return err
	}
	mark := func(order *v1.Widget) error {
		order.Status.Ready = true
		return r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
	}
	order.Status.Size = 1
	if err := r.Status().Update(ctx, &order); err != nil { // want `^handwritten status write to Widget`
		return err
	}
	if err := mark(&order); err != nil {
		return err
	}
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return err
	}
	order.Status.Size = 2
	return r.Status().Update(ctx, &order) // want `^handwritten status write to Widget`
}

// A method value of the package whose body writes the status it is given
// (markDone, taken as a value, so its write stays): the re-read keeps a
// patcher of its own.
func (r *OrderReconciler) rereadAfterMethodValue(ctx context.Context, req ctrl.Request) error {
	var order v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return err
	}
	mark := r.markDone
	order.Status.Size = 1
	if err := r.Status().Update(ctx, &order); err != nil { // want `^handwritten status write to Widget`
		return err
	}
	if err := mark(ctx, &order); err != nil {
		return err
	}
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return err
	}
	order.Status.Size = 2
	return r.Status().Update(ctx, &order) // want `^handwritten status write to Widget`
}

func (r *OrderReconciler) markDone(ctx context.Context, order *v1.Widget) error {
	order.Status.Ready = true
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
}
