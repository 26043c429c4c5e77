// Package migrateexisting: a project already partly on the patcher
// (issue 80): a function's object life already holds a patcher the code
// made (New after the Get, or Fetch), and a handwritten write of the
// same object is left. One patcher per object life, made at its read:
// each write becomes that patcher's Flush, never a second New.
package migrateexisting

import (
	"context"

	v1 "example.com/op/api/v1"
	"example.com/op/internal/patchers"
	"github.com/statuspatch/statuspatch/patcher"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type OrderReconciler struct {
	client.Client
}

// (a) A later direct write beside a patcher New made after the Get.
func (r *OrderReconciler) later(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	order.Status.Ready = true
	if err := p.Flush(ctx); err != nil {
		return err
	}
	order.Status.Size = order.Spec.Size
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
}

// (a') The same beside a Fetch: the object is the patcher's.
func (r *OrderReconciler) fetched(ctx context.Context, req ctrl.Request) error {
	p, err := patchers.FetchWidgetStatusPatcher(ctx, r.Client, req.NamespacedName)
	if err != nil {
		return client.IgnoreNotFound(err)
	}
	order := p.Object()
	order.Status.Ready = true
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
}

// (b) A write on an exclusive path beside the patcher's Flush.
func (r *OrderReconciler) exclusive(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	if order.Spec.Size < 0 {
		order.Status.Ready = false
		return r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
	}
	order.Status.Ready = true
	return p.Flush(ctx)
}

// (c) A deferred write of the object the patcher holds.
func (r *OrderReconciler) deferred(ctx context.Context, req ctrl.Request) (err error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	defer func() {
		if uerr := r.Status().Update(ctx, order); uerr != nil && err == nil { // want `^handwritten status write to Widget`
			err = uerr
		}
	}()
	order.Status.Ready = true
	return p.Flush(ctx)
}

// (d) A helper of the package taking the object: it takes the patcher.
func (r *OrderReconciler) helped(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	order.Status.Ready = true
	if err := p.Flush(ctx); err != nil {
		return err
	}
	order.Status.Size = 1
	return r.writeStatus(ctx, order)
}

func (r *OrderReconciler) writeStatus(ctx context.Context, order *v1.Widget) error {
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
}

// (f) The object read again with Get after the patcher is made: the
// patcher's fresh read (p, err := Fetch...), not a second life.
func (r *OrderReconciler) reread(ctx context.Context, req ctrl.Request) error {
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
		return err
	}
	order.Status.Size = order.Spec.Size
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
}

// A write before the patcher is made: it stays, naming the line.
func (r *OrderReconciler) before(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	order.Status.Ready = false
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget: .*\(not moved to the patcher: order's patcher p is made at line 127, after this write or on another path: one patcher per object life, made at its read`
		return err
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	order.Status.Ready = true
	return p.Flush(ctx)
}

// A patcher made with an option the write cannot take: another field
// owner than the write's.
func (r *OrderReconciler) optioned(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order, patcher.WithFieldOwner("order-controller"))
	order.Status.Ready = true
	if err := p.Flush(ctx); err != nil {
		return err
	}
	order.Status.Size = 2
	return r.Status().Update(ctx, order, client.FieldOwner("other")) // want `^handwritten status write to Widget: .*\(not moved to the patcher: the write has the field owner "other", and its patcher p, made at line 139, has the field owner "order-controller"`
}

// A merge patch whose base is taken after the patcher's Flush, nothing
// changed since: the patcher's Flush sends what it sent; the base goes.
func (r *OrderReconciler) patched(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	order.Status.Ready = true
	if err := p.Flush(ctx); err != nil {
		return err
	}
	base := order.DeepCopy()
	order.Status.Size = 3
	return r.Status().Patch(ctx, order, client.MergeFrom(base)) // want `^handwritten status write to Widget`
}

// A base taken after a status change the patcher has not sent: the
// handwritten patch leaves that change out, a Flush would send it.
func (r *OrderReconciler) lateBase(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	order.Status.Ready = true
	patch := client.MergeFrom(order.DeepCopy())
	order.Status.Size = 4
	if err := r.Status().Patch(ctx, order, patch); err != nil { // want `^handwritten status write to Widget: .*\(not moved to the patcher: the base is taken at line 174, after order changes at line 173: .*`
		return err
	}
	return p.Flush(ctx)
}

// Two writes after the patcher, the first kept for its field owner: the
// second, left a Flush after it, would be locked on an older version.
func (r *OrderReconciler) pair(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	order.Status.Ready = true
	if err := r.Status().Update(ctx, order, client.FieldOwner("other")); err != nil { // want `^handwritten status write to Widget: .*\(not moved to the patcher: the write has the field owner "other", and its patcher p, made at line 189, has none: .*`
		return err
	}
	order.Status.Size = 5
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget: .*\(not moved to the patcher: the status write of order at line 191, after its patcher p is made at line 189, stays .*`
		return err
	}
	return p.Flush(ctx)
}
