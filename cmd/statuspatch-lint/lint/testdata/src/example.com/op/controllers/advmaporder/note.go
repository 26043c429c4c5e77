package advmaporder

import (
	"context"

	v1 "example.com/op/api/v1"
	"example.com/op/internal/patchers"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A decision kept before the code's patcher's Flush declares a name used
// twice after the write: the note names the first use.
func (r *OrderReconciler) usedTwice(ctx context.Context, key client.ObjectKey, n *int) (int, error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return 0, err
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	_ = p
	order.Status.Ready = false
	if err := r.Get(ctx, key, &v1.Widget{}); err != nil {
		return 0, err
	}
	size := order.Status.Size + 1
	order.Status.Size = size
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget`
		return 0, err
	}
	*n += size
	return size * 2, nil
}
