// Package migratechain: status helpers reached through other helpers of
// the package that only hand the object on (a chain), as kueue's
// LocalQueueReconciler does (Reconcile -> reconcileConsumedUsage ->
// updateAdmissionFsStatus). Every function of a chain takes the one
// patcher its first caller makes after its Get; at fc01b3f each write
// stayed, "the patcher is made where its callers read it; move the write
// there", naming no fact.
package migratechain

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
}

// Two deep: Reconcile -> sync -> markReady.
func (r *Reconciler) Reconcile(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return client.IgnoreNotFound(err)
	}
	return r.sync(ctx, w)
}

func (r *Reconciler) sync(ctx context.Context, w *v1.Widget) error {
	if w.Spec.Size == 0 {
		return nil
	}
	return r.markReady(ctx, w)
}

func (r *Reconciler) markReady(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// Three deep: Deep -> outer -> inner -> setSize, by a client parameter.
func (r *Reconciler) Deep(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return outer(ctx, r.Client, w)
}

func outer(ctx context.Context, c client.Client, w *v1.Widget) error {
	return inner(ctx, c, w, w.Spec.Size)
}

func inner(ctx context.Context, c client.Client, w *v1.Widget, size int) error {
	if size < 0 {
		return nil
	}
	return setSize(ctx, c, w, size)
}

func setSize(ctx context.Context, c client.Client, w *v1.Widget, size int) error {
	w.Status.Size = size
	return c.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// Two chains from one caller, and a direct call beside them (kueue's
// Reconcile -> UpdateStatusIfChanged -> updateStatusIfChanged, and
// Reconcile -> updateStatusIfChanged).
func (r *Reconciler) Both(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Spec.Size == 0 {
		return r.condition(ctx, w, "Empty")
	}
	if err := r.usage(ctx, w); err != nil {
		return err
	}
	return r.setCondition(ctx, w, "Sized")
}

func (r *Reconciler) condition(ctx context.Context, w *v1.Widget, reason string) error {
	return r.setCondition(ctx, w, reason)
}

func (r *Reconciler) setCondition(ctx context.Context, w *v1.Widget, reason string) error {
	old := w.Status.Ready
	w.Status.Ready = reason == "Sized"
	if old == w.Status.Ready {
		return nil
	}
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func (r *Reconciler) usage(ctx context.Context, w *v1.Widget) error {
	if w.Spec.Size > 10 {
		return r.setUsage(ctx, w, 10)
	}
	return r.setUsage(ctx, w, w.Spec.Size)
}

func (r *Reconciler) setUsage(ctx context.Context, w *v1.Widget, n int) error {
	w.Status.Size = n
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	w.Status.Conditions = nil // after the write: the patcher's object
	return nil
}

// A helper the caller defers, then changes the spec: the deferred call
// runs after that change, so the caller's patcher leaves it unsent, as
// the status write did; at 7a366da the patcher had no option and its
// Flush refused the spec change (patcher.ErrNonStatusChange).
func (r *Reconciler) DeferredDirect(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	defer r.deferDirectLeaf(ctx, w)
	w.Spec.Size = 3
	return nil
}

func (r *Reconciler) deferDirectLeaf(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}
