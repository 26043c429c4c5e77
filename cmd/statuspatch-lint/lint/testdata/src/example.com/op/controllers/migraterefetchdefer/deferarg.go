// Package migraterefetchdefer: a re-Get after the code's patcher, where a
// defer or go statement registered before it was given the object
// itself: its argument is evaluated when it is registered, so it holds
// the object the variable pointed to then. The Get fills that object in
// place; a Fetch's `order = p.Object()` would point the variable to
// another, and the deferred call would see the object as first read.
package migraterefetchdefer

import (
	"context"

	v1 "example.com/op/api/v1"
	"example.com/op/internal/patchers"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type OrderReconciler struct {
	client.Client
	last int
}

// finish reads what the reconcile left in the object.
func (r *OrderReconciler) finish(order *v1.Widget) { r.last = order.Status.Size } // want finish:"statusOnly\\[0\\]"

// (a) defer r.finish(order): the deferred call holds the first object.
func (r *OrderReconciler) deferArg(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	defer r.finish(order)
	order.Status.Ready = true
	if err := p.Flush(ctx); err != nil {
		return err
	}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	order.Status.Size = order.Spec.Size
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget.*order is read again with Get at line 38, after its patcher p is made at line 32, and that Get stays a Get: the defer statement at line 33 is given order, evaluated when it is registered, before the re-read.*register the defer statement after the re-read, or give it a function literal`
}

// (b) A deferred literal reads the variable when it runs: the Fetch is
// fine there.
func (r *OrderReconciler) deferLit(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	defer func() { r.finish(order) }()
	order.Status.Ready = true
	if err := p.Flush(ctx); err != nil {
		return err
	}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	order.Status.Size = order.Spec.Size
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
}

// (c) Without a patcher of the code's: kubebuilder's re-fetch between two
// writes, the object given to a defer before it. The re-read stays a Get.
func (r *OrderReconciler) twoWrites(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	defer r.finish(order)
	order.Status.Ready = true
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget`
		return err
	}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	order.Status.Size = order.Spec.Size
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget.*the re-read of order at line 77 stays a cached Get \(the defer statement at line 72 is given order, evaluated when it is registered`
}

// finishStatus reads what the reconcile left in the object's status.
func (r *OrderReconciler) finishStatus(st *v1.WidgetStatus) { r.last = st.Size }

// (d) defer r.finishStatus(&order.Status): a part of the object, held as
// the object is.
func (r *OrderReconciler) deferPart(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	defer r.finishStatus(&order.Status)
	order.Status.Ready = true
	if err := p.Flush(ctx); err != nil {
		return err
	}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	order.Status.Size = order.Spec.Size
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget.*the defer statement at line 95 is given &order.Status, a part of order, evaluated when it is registered`
}

// (e) A defer inside a function literal run before the re-read has run
// already: nothing is held, the re-read becomes the Fetch.
func (r *OrderReconciler) deferInLit(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	func() { defer r.finish(order) }()
	order.Status.Ready = true
	if err := p.Flush(ctx); err != nil {
		return err
	}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	order.Status.Size = order.Spec.Size
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
}
