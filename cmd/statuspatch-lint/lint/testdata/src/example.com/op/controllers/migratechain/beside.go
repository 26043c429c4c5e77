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

// The chain first, then the caller's own write: the chain's write, two
// calls down, takes the caller's patcher, and the caller's write follows
// it on the same patcher.
func (r *Reconciler) OwnAfter(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if err := r.afterVia(ctx, w); err != nil {
		return err
	}
	w.Status.Size = 2
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func (r *Reconciler) afterVia(ctx context.Context, w *v1.Widget) error {
	return r.afterLeaf(ctx, w)
}

func (r *Reconciler) afterLeaf(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// A chain whose write stays (middle has a caller without a read, kept.go)
// keeps the caller's own write after it: two writers of one life.
func (r *Reconciler) OwnKept(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if err := r.middle(ctx, w); err != nil {
		return err
	}
	w.Status.Size = 3
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\) \(not moved to the patcher: w is passed to Reconciler\.middle at line 64, where w is passed to Reconciler\.leaf at kept\.go:29, where its status is written at kept\.go:34, a write -fix does not move with the caller's\)$`
}

// The function the caller hands the object to reads it again and makes
// its own patcher for its helper: that write is no write of the caller's
// patcher, whose base is older than it (its Flush would be a Conflict),
// so the caller's own write stays; at 7a366da it moved.
func (r *Reconciler) OwnReread(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if err := r.rereadVia(ctx, w); err != nil {
		return err
	}
	w.Status.Size = 4
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\) \(not moved to the patcher: w is passed to Reconciler\.rereadVia at line 80, where w is passed to Reconciler\.rereadLeaf at line 91, where its status is written at line 96, a write -fix does not move with the caller's\)$`
}

func (r *Reconciler) rereadVia(ctx context.Context, w *v1.Widget) error {
	if err := r.Get(ctx, client.ObjectKeyFromObject(w), w); err != nil {
		return err
	}
	return r.rereadLeaf(ctx, w)
}

func (r *Reconciler) rereadLeaf(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}
