// Package migrateretrynote: the note of a decision that stays before the
// Flush of the code's patcher names the decision's own reason, not an
// early return that flushes that patcher before it.
package migrateretrynote

import (
	"context"

	v1 "example.com/op/api/v1"
	"example.com/op/internal/patchers"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct{ client.Client }

// (a) A guard returning p.Flush, then a decision that counts outside
// itself: the note names the count, not the guard's return.
func (r *R) counted(ctx context.Context, key client.ObjectKey, n *int) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return err
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	if order.Spec.Size < 0 {
		return p.Flush(ctx)
	}
	if !order.Status.Ready {
		*n++
		order.Status.Ready = true
	}
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
}

// (b) A return of the function's own result in the decision: the note
// names it, as before.
func (r *R) requeued(ctx context.Context, key client.ObjectKey) (bool, error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return false, err
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	_ = p
	if !order.Status.Ready {
		return true, nil
	}
	order.Status.Size = order.Spec.Size
	return false, r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
}
