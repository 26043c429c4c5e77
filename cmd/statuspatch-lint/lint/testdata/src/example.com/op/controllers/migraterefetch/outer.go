package migraterefetch

import (
	"context"

	v1 "example.com/op/api/v1"
	"example.com/op/internal/patchers"
	ctrl "sigs.k8s.io/controller-runtime"
)

// (h) p is declared outside the block it is made in: the Fetch assigns
// that p, never a new one shadowing it.
func (r *OrderReconciler) outer(ctx context.Context, req ctrl.Request) (bool, error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return false, err
	}
	var p *patchers.WidgetStatusPatcher
	if order.Spec.Size > 0 {
		p = patchers.NewWidgetStatusPatcher(r.Client, order)
		order.Status.Ready = true
		if err := p.Flush(ctx); err != nil {
			return false, err
		}
		if err := r.Get(ctx, req.NamespacedName, order); err != nil {
			return false, err
		}
		order.Status.Size = 8
		if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget`
			return false, err
		}
	}
	return p != nil && p.Object().Status.Ready, nil
}
