// Package migratehelper: write-only helpers, whose status write writes the
// object they are given. -fix makes such a helper take the patcher, which
// each caller makes where it read the object, when every caller can; else
// nothing moves, and the finding says which caller blocks and why.
package migratehelper

import (
	"context"
	"fmt"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client client.Client
}

// getWidget only reads: its object, when not nil, is what the server stored.
func (r *Reconciler) getWidget(ctx context.Context, key client.ObjectKey) (*v1.Widget, error) {
	w := &v1.Widget{}
	if err := r.client.Get(ctx, key, w); err != nil {
		return nil, err
	}
	return w, nil
}

// spark-operator's shape: a getter, a copy, status changes (one through a
// function of the package), the helper, from two places.
func (r *Reconciler) Reconcile(ctx context.Context, key client.ObjectKey) error {
	old, err := r.getWidget(ctx, key)
	if err != nil {
		return err
	}
	if old.Status.Ready {
		return nil
	}
	app := old.DeepCopy()
	app.Status.Size = app.Spec.Size
	if app.Spec.Size == 0 {
		return r.updateStatus(ctx, app)
	}
	app.Status.Ready = true
	countSeen(app)
	return r.updateStatus(ctx, app)
}

func countSeen(w *v1.Widget) { w.Status.Size++ } // want countSeen:`^statusOnly\[0\]$`

// A caller that reads with Get inside a retry closure.
func (r *Reconciler) reconcileInClosure(ctx context.Context, key client.ObjectKey) error {
	return retryOnConflict(func() error {
		w := &v1.Widget{}
		if err := r.client.Get(ctx, key, w); err != nil {
			return err
		}
		w.Status.Ready = true
		return r.setStatus(ctx, w)
	})
}

// setStatus uses its object only in the write (ScheduledSparkApplication's
// helper): the body gets no variable for it.
func (r *Reconciler) setStatus(ctx context.Context, w *v1.Widget) error {
	// log.Info("status", "name", w.Name)
	return r.client.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func retryOnConflict(fn func() error) error { return fn() }

// updateStatus only writes; its error wrapping stays.
func (r *Reconciler) updateStatus(ctx context.Context, app *v1.Widget) error {
	if err := r.client.Status().Update(ctx, app); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return fmt.Errorf("updating the status of %s: %w", app.Name, err)
	}
	return nil
}

// The copy of a read, written directly: the patcher is made after the copy.
func (r *Reconciler) direct(ctx context.Context, key client.ObjectKey) error {
	old, err := r.getWidget(ctx, key)
	if err != nil {
		return err
	}
	w := old.DeepCopy()
	w.Status.Ready = true
	return r.client.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// A helper that patches with the base its callers take: the base goes,
// the patcher is made in its place (kept when the caller uses it too).
func (r *Reconciler) resize(ctx context.Context, key client.ObjectKey, n int) error {
	w := &v1.Widget{}
	if err := r.client.Get(ctx, key, w); err != nil {
		return err
	}
	base := w.DeepCopy()
	w.Status.Size = n
	return r.patchStatus(ctx, w, base)
}

func (r *Reconciler) resizeIfChanged(ctx context.Context, key client.ObjectKey, n int) error {
	w := &v1.Widget{}
	if err := r.client.Get(ctx, key, w); err != nil {
		return err
	}
	base := w.DeepCopy()
	w.Status.Size = n
	if base.Status.Size == n {
		return nil
	}
	return r.patchStatus(ctx, w, base)
}

func (r *Reconciler) patchStatus(ctx context.Context, w, base *v1.Widget) error {
	return r.client.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// A helper its callers give a ready-made patch (spark-operator's
// updateStatus(ctx, app, patch) shape): the patch goes, the patcher is
// made where the patch, or its base, is taken.
func (r *Reconciler) complete(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.client.Get(ctx, key, w); err != nil {
		return err
	}
	patch := client.MergeFrom(w.DeepCopy())
	w.Status.Ready = true
	return r.writePatch(ctx, w, patch)
}

func (r *Reconciler) shrink(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.client.Get(ctx, key, w); err != nil {
		return err
	}
	base := w.DeepCopy()
	w.Status.Size = 0
	return r.writePatch(ctx, w, client.MergeFrom(base))
}

func (r *Reconciler) writePatch(ctx context.Context, w *v1.Widget, patch client.Patch) error {
	if err := r.client.Status().Patch(ctx, w, patch); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return fmt.Errorf("patch status of %s: %w", w.Name, err)
	}
	return nil
}

// SparkConnect's shape: the helper decides (and changes the status)
// before writing; the object shares its parameter field with the old one.
type ConnReconciler struct {
	client.Client
}

func (r *ConnReconciler) Reconcile(ctx context.Context, key client.ObjectKey) error {
	old := &v1.Widget{}
	if err := r.Get(ctx, key, old); err != nil {
		return client.IgnoreNotFound(err)
	}
	conn := old.DeepCopy()
	conn.Status.Ready = conn.Spec.Size > 0
	if err := r.syncStatus(ctx, old, conn); err != nil {
		return fmt.Errorf("syncing the status: %w", err)
	}
	return nil
}

func (r *ConnReconciler) syncStatus(ctx context.Context, old, conn *v1.Widget) error { // want syncStatus:`^statusOnly\[1\]$`
	conn.Status.Size = conn.Spec.Size
	if old.Status.Ready == conn.Status.Ready && old.Status.Size == conn.Status.Size {
		return nil
	}
	return r.Status().Update(ctx, conn) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}
