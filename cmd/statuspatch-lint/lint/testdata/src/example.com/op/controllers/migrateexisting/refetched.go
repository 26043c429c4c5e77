package migrateexisting

import (
	"context"

	v1 "example.com/op/api/v1"
	"example.com/op/internal/patchers"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// reread's write once its re-read is made the patcher's, as its reason
// says (p, err = Fetch...; order = p.Object()): the object is what the
// fetched patcher holds, and the write is its Flush.
func (r *OrderReconciler) refetched(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	order.Status.Ready = true
	if err := p.Flush(ctx); err != nil {
		return err
	}
	p, err := patchers.FetchWidgetStatusPatcher(ctx, r.Client, req.NamespacedName)
	if err != nil {
		return err
	}
	order = p.Object()
	order.Status.Size = order.Spec.Size
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
}

// The patcher made again from another object between its making and the
// write: the write stays, naming the line.
func (r *OrderReconciler) remade(ctx context.Context, req ctrl.Request, other *v1.Widget) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	order.Status.Ready = true
	if err := p.Flush(ctx); err != nil {
		return err
	}
	p = patchers.NewWidgetStatusPatcher(r.Client, other)
	order.Status.Size = 6
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget: .*\(not moved to the patcher: order's patcher p, made at line 41, is assigned again at line 46, before this write: its Flush there may write another object\)`
		return err
	}
	return p.Flush(ctx)
}

// The scaffold's re-fetch after -fix (one patcher made at the read, the
// re-read a patcher of its own), its write turned back by hand: the
// object is what the fetched patcher read; the first patcher's
// reference is to the object before it.
func (r *OrderReconciler) refetchedOther(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	orderPatcher := patchers.NewWidgetStatusPatcher(r.Client, order)
	order.Status.Ready = true
	if err := orderPatcher.Flush(ctx); err != nil {
		return err
	}
	orderPatcher2, err := patchers.FetchWidgetStatusPatcher(ctx, r.Client, req.NamespacedName)
	if err != nil {
		return err
	}
	order = orderPatcher2.Object()
	order.Status.Size = 7
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
}
