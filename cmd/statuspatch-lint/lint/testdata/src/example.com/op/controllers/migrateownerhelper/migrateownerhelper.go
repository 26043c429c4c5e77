// Package migrateownerhelper: helpers writing with a field owner
// (client.FieldOwner) that take the patcher their callers make. The
// callers make it with patcher.WithFieldOwner and the same owner, so the
// managedFields owner of each write stays what it was: through one
// helper, a helper writing twice, sub-reconcilers on exclusive paths, a
// scope's field, and a caller writing with the same owner itself.
package migrateownerhelper

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
}

const controllerName = "widget-controller"

const typedOwner client.FieldOwner = "widget-phases"

func (r *Reconciler) Reconcile(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return client.IgnoreNotFound(err)
	}
	return r.setReady(ctx, w)
}

// setReady writes with a constant of the package.
func (r *Reconciler) setReady(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w, client.FieldOwner(controllerName)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func (r *Reconciler) twice(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return r.grow(ctx, w)
}

// grow writes twice with a literal owner (helperGroup).
func (r *Reconciler) grow(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w, client.FieldOwner("widget-grow")); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.Merge, client.FieldOwner("widget-grow")) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// phases hands the object to a sub-reconciler on each path; both write
// with a typed owner, and take one patcher.
func (r *Reconciler) phases(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if !w.DeletionTimestamp.IsZero() {
		return r.reconcileDelete(ctx, w)
	}
	return r.reconcileNormal(ctx, w)
}

func (r *Reconciler) reconcileDelete(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = false
	return r.Status().Update(ctx, w, typedOwner) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func (r *Reconciler) reconcileNormal(ctx context.Context, w *v1.Widget) error {
	if w.Status.Size == 0 {
		w.Status.Size = 1
		return r.Status().Update(ctx, w, typedOwner) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
	}
	w.Status.Ready = true
	return r.Status().Update(ctx, w, typedOwner) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// scope is what one reconcile works on.
type scope struct {
	Widget *v1.Widget
}

func (r *Reconciler) scoped(ctx context.Context, key client.ObjectKey) error {
	s := &scope{Widget: &v1.Widget{}}
	if err := r.Get(ctx, key, s.Widget); err != nil {
		return err
	}
	return r.reconcileScope(ctx, s)
}

func (r *Reconciler) reconcileScope(ctx context.Context, s *scope) error {
	w := s.Widget
	w.Status.Ready = true
	return r.Status().Update(ctx, w, client.FieldOwner(controllerName)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// both writes the object itself with the helper's owner: the helper takes
// the caller's patcher.
func (r *Reconciler) both(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Size = 2
	if err := r.Status().Update(ctx, w, client.FieldOwner(controllerName)); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	return r.finish(ctx, w)
}

func (r *Reconciler) finish(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w, client.FieldOwner(controllerName)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}
