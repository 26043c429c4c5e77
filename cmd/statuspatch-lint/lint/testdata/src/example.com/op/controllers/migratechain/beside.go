package migratechain

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A chain beside the caller's own write of the same object: one life,
// one patcher, the caller's own write a Flush of it.
func (r *Reconciler) Own(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Size = 0
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	return r.ownVia(ctx, w)
}

func (r *Reconciler) ownVia(ctx context.Context, w *v1.Widget) error {
	return r.ownLeaf(ctx, w)
}

func (r *Reconciler) ownLeaf(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// The chain first, then the caller's own write: a write two calls down
// is not taken as the caller's (its check of a write kept between its
// read and its own follows one call), so both stay, naming the lines.
func (r *Reconciler) OwnAfter(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if err := r.afterVia(ctx, w); err != nil {
		return err
	}
	w.Status.Size = 2
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\) \(not moved to the patcher: w is passed to Reconciler\.afterVia at line 41, where w is passed to Reconciler\.afterLeaf at line 49, where its status is written at line 54, a write -fix does not move with the caller's\)$`
}

func (r *Reconciler) afterVia(ctx context.Context, w *v1.Widget) error {
	return r.afterLeaf(ctx, w)
}

func (r *Reconciler) afterLeaf(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\) \(not moved to the patcher: w is a parameter of afterLeaf: its caller at line 49 hands on w, a parameter of afterVia, and its caller at line 41 also writes w's status at line 45, which does not move \(w is passed to Reconciler\.afterVia at line 41, where w is passed to Reconciler\.afterLeaf at line 49, where its status is written at line 54, a write -fix does not move with the caller's\)\)$`
}
