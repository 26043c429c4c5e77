// Package migratesubphase: sub-reconcilers that write their object more
// than once (a phase switch, early returns, sequential writes), as
// kubebuilder projects and cluster-api providers write reconcileNormal
// and reconcileDelete. Each takes the patcher its callers make after
// their Get, every write a Flush of it: its Flush makes the response the
// next base, as the Update made it the object.
package migratesubphase

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
}

func (r *Reconciler) Reconcile(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return client.IgnoreNotFound(err)
	}
	if !w.DeletionTimestamp.IsZero() {
		return r.reconcileDelete(ctx, w)
	}
	return r.reconcileNormal(ctx, w)
}

// reconcileNormal writes on each phase's path, and once more after.
func (r *Reconciler) reconcileNormal(ctx context.Context, w *v1.Widget) error {
	switch {
	case w.Status.Size == 0:
		w.Status.Size = 1
		if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return err
		}
		return nil
	case w.Status.Size < w.Spec.Size:
		w.Status.Size++
		return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
	}
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	w.Status.Size = w.Spec.Size
	return r.Status().Patch(ctx, w, client.Merge) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// reconcileDelete writes twice, one after the other.
func (r *Reconciler) reconcileDelete(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = false
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	w.Status.Size = 0
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// A caller that writes the object too passes the patcher of its own
// writes: one patcher for the caller's write and the helper's two.
func (r *Reconciler) mixed(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	return r.phases(ctx, w)
}

func (r *Reconciler) phases(ctx context.Context, w *v1.Widget) error {
	for i := 0; i < 2; i++ {
		w.Status.Size = i
		if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return err
		}
	}
	return nil
}

// An alias of the parameter, written on each path.
func (r *Reconciler) aliasCaller(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return r.aliased(ctx, w)
}

func (r *Reconciler) aliased(ctx context.Context, w *v1.Widget) error {
	m := w
	if m.Status.Size == 0 {
		m.Status.Size = 1
		return r.Status().Update(ctx, m) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
	}
	m.Status.Ready = true
	return r.Status().Update(ctx, m) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}
