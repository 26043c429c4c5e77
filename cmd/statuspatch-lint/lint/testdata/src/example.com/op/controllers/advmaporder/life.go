package advmaporder

import (
	"context"

	v1 "example.com/op/api/v1"
	"example.com/op/internal/patchers"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type OrderReconciler struct {
	client.Client
}

// Kept: two writes of the object between its patcher's making and this
// write stay, each of a shape -fix does not move. The reason names the
// first (the other writes were a map's).
func (r *OrderReconciler) twoNeighbours(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	order.Status.Ready = true
	if err := p.Flush(ctx); err != nil {
		return err
	}
	if err := r.Status().Patch(ctx, order, client.RawPatch(types.MergePatchType, []byte(`{"status":{"ready":true}}`))); err != nil { // want `handwritten`
		return err
	}
	if err := r.Status().Patch(ctx, order, client.RawPatch(types.MergePatchType, []byte(`{"status":{"size":1}}`))); err != nil { // want `handwritten`
		return err
	}
	order.Status.Size = 2
	return r.Status().Update(ctx, order) // want `the status write of order at line 30, after its patcher p is made at line 25, stays \(the patch .*ready.* is not a merge patch`
}
