package migrateexistingretry

import (
	"context"

	v1 "example.com/op/api/v1"
	"example.com/op/internal/patchers"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A decision that calls the cluster: a retry would call it again, so it
// stays before the Flush, the fix naming the call's line.
func (r *OrderReconciler) askedCluster(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	if order.Spec.Size < 0 {
		order.Status.Ready = false
		return p.Flush(ctx)
	}
	if !order.Status.Ready {
		peer := &v1.Widget{}
		if err := r.Get(ctx, client.ObjectKey{Namespace: order.Namespace, Name: "peer"}, peer); err == nil {
			order.Status.Size = peer.Status.Size
		}
	}
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// The patcher used by a goroutine: it may run while Retry reads again.
func (r *OrderReconciler) goroutine(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	done := make(chan error)
	go func() { done <- p.Flush(ctx) }()
	<-done
	if !order.Status.Ready {
		order.Status.Size++
	}
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// The patcher used in a function literal called before the write.
func (r *OrderReconciler) literal(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	mark := func() { p.Object().Status.Ready = true }
	mark()
	if order.Status.Ready {
		order.Status.Size = 1
	}
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// The patcher handed to a function before the write.
func (r *OrderReconciler) handed(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	touch(p)
	if order.Status.Ready {
		order.Status.Size = 2
	}
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

func touch(p *patchers.WidgetStatusPatcher) { p.Object().Status.Size = 7 }
