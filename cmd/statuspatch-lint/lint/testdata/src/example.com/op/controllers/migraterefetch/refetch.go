// Package migraterefetch: a re-Get of an object after the patcher its
// code made (issue 80): the re-read becomes the patcher's fresh read,
// never a Get left beside it, and the write after it that patcher's Flush.
package migraterefetch

import (
	"context"
	"errors"

	v1 "example.com/op/api/v1"
	"example.com/op/internal/patchers"
	"github.com/statuspatch/statuspatch/patcher"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type OrderReconciler struct {
	client.Client
}

// (a) kubebuilder's re-fetch after the patcher's Flush: a Fetch into p.
func (r *OrderReconciler) reread(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order, patcher.WithFieldOwner("order"))
	order.Status.Ready = true
	if err := p.Flush(ctx); err != nil {
		return err
	}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	order.Status.Size = order.Spec.Size
	return r.Status().Update(ctx, order, client.FieldOwner("order")) // want `^handwritten status write to Widget`
}

// (b) A deferred literal flushes p: the Fetch reads into order itself and
// is p's on success only, so a failed read leaves the literal p.
func (r *OrderReconciler) deferred(ctx context.Context, req ctrl.Request) (retErr error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	defer func() {
		if retErr != nil {
			order.Status.Ready = false
			retErr = errors.Join(retErr, p.Flush(ctx))
		}
	}()
	order.Status.Ready = true
	if err := p.Flush(ctx); err != nil {
		return err
	}
	err := r.Get(ctx, req.NamespacedName, order)
	if err != nil {
		return err
	}
	order.Status.Size = 2
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
}

// (c) The re-Get's error branch goes on: a failed Fetch would leave p nil
// for the write after it. It stays, naming the line.
func (r *OrderReconciler) goesOn(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	order.Status.Ready = true
	if err := p.Flush(ctx); err != nil {
		return err
	}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		order.Status.Size = 0
	}
	order.Status.Size = 3
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget: .*\(not moved to the patcher: order is read again with Get at line 77, after its patcher p is made at line 72, and that Get stays a Get: its error branch does not end in a return`
}

// (d) A defer statement takes p before the re-read: it would flush the
// patcher of the first read. It stays, naming the line.
func (r *OrderReconciler) heldByDefer(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	defer p.Flush(ctx)
	order.Status.Ready = true
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	order.Status.Size = 4
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget: .*\(not moved to the patcher: order is read again with Get at line 94, after its patcher p is made at line 91, and that Get stays a Get: the defer statement at line 92 takes p when it runs`
}

// (e) A deferred literal's own handwritten write becomes p's Flush too:
// the Fetch reads into order and is p's on success only.
func (r *OrderReconciler) deferredWrite(ctx context.Context, req ctrl.Request) (retErr error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	defer func() {
		if retErr != nil {
			order.Status.Ready = false
			retErr = errors.Join(retErr, r.Status().Update(ctx, order)) // want `^handwritten status write to Widget`
		}
	}()
	order.Status.Ready = true
	if err := p.Flush(ctx); err != nil {
		return err
	}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	order.Status.Size = 5
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
}
