// Package migratelifehelper: a helper that makes its own patcher from
// the object its caller already has a patcher of (issue 80, the newcomer
// scaffold's markObserved). One patcher per object life: the helper takes
// the caller's patcher, its base dropped.
package migratelifehelper

import (
	"context"
	"errors"

	v1 "example.com/op/api/v1"
	"example.com/op/internal/patchers"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type OrderReconciler struct {
	client.Client
}

// (a) The scaffold: a deferred write on error, a MergeFrom patch, then a
// helper whose body takes its own base and patches with the lock.
func (r *OrderReconciler) scaffold(ctx context.Context, req ctrl.Request) (_ ctrl.Result, retErr error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		if retErr == nil {
			return
		}
		order.Status.Ready = false
		if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget`
			retErr = errors.Join(retErr, err)
		}
	}()
	base := order.DeepCopy()
	order.Status.Size = order.Spec.Size
	if err := r.Status().Patch(ctx, order, client.MergeFrom(base)); err != nil { // want `^handwritten status write to Widget`
		return ctrl.Result{}, err
	}
	if err := r.markObserved(ctx, order); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// markObserved takes its own base and patches with the lock.
func (r *OrderReconciler) markObserved(ctx context.Context, order *v1.Widget) error {
	base := order.DeepCopy()
	order.Status.Ready = true
	return r.Status().Patch(ctx, order, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})) // want `^handwritten status write to Widget`
}

// (b) The code's patcher made already: the helper takes it.
func (r *OrderReconciler) made(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	order.Status.Size = 1
	if err := p.Flush(ctx); err != nil {
		return err
	}
	return r.markSized(ctx, order)
}

// markSized takes its own base and patches.
func (r *OrderReconciler) markSized(ctx context.Context, order *v1.Widget) error {
	base := order.DeepCopy()
	order.Status.Size = 2
	return r.Status().Patch(ctx, order, client.MergeFrom(base)) // want `^handwritten status write to Widget`
}

// (c) The caller changes the status before the call and sends nothing:
// the helper's patch leaves that change out, a Flush of p would send it.
// It stays, naming the line.
func (r *OrderReconciler) unsent(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	order.Status.Size = 3
	if err := r.markLate(ctx, order); err != nil {
		return err
	}
	return p.Flush(ctx)
}

// markLate takes its own base and patches.
func (r *OrderReconciler) markLate(ctx context.Context, order *v1.Widget) error {
	base := order.DeepCopy()
	order.Status.Ready = true
	return r.Status().Patch(ctx, order, client.MergeFrom(base)) // want `^handwritten status write to Widget: .*\(not moved to the patcher: order is a parameter of markLate, which takes its own base at line 94: its caller at line 86 calls it after order may change at line 85, unsent`
}

// (d) No caller holds a patcher of the object: the helper's patcher is
// the life's only one, made at its base as before.
func (r *OrderReconciler) alone(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	return r.markAlone(ctx, order)
}

// markAlone takes its own base and patches.
func (r *OrderReconciler) markAlone(ctx context.Context, order *v1.Widget) error {
	base := order.DeepCopy()
	order.Status.Ready = true
	return r.Status().Patch(ctx, order, client.MergeFrom(base)) // want `^handwritten status write to Widget`
}
