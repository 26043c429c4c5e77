package migraterefetch

import (
	"context"
	"errors"

	v1 "example.com/op/api/v1"
	"example.com/op/internal/patchers"
	ctrl "sigs.k8s.io/controller-runtime"
)

// (f) A helper's write after a re-Get: the helper would take p, and the
// Get would stay beside it. It stays, naming both lines.
func (r *OrderReconciler) sized(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	order.Status.Size = 1
	if err := p.Flush(ctx); err != nil {
		return err
	}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	return r.markSized(ctx, order)
}

func (r *OrderReconciler) markSized(ctx context.Context, order *v1.Widget) error {
	order.Status.Size = 2
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget: .*its caller at line 27: order is read again with Get at line 24, after its patcher p is made at line 19, and that Get would stay beside it: p would not hold what the helper sends`
}

// (g) The re-Get's error branch flushes p: a failed Fetch returns a nil
// patcher. It stays, naming the line.
func (r *OrderReconciler) flushOnError(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	order.Status.Ready = true
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		order.Status.Ready = false
		return errors.Join(err, p.Flush(ctx))
	}
	order.Status.Size = 7
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget: .*order is read again with Get at line 44, after its patcher p is made at line 42, and that Get stays a Get: its error branch at line 44 uses p`
}
