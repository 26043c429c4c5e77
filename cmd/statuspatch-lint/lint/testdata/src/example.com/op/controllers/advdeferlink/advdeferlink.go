// Package advdeferlink: adversary s97c on R2's deferred helper calls
// (lifedefer.go deferredCall): the same call in a deferred literal.
package advdeferlink

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
}

// A link deferring its leaf's call in a literal, then changing the spec.
func (r *Reconciler) Deferred(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return r.deferVia(ctx, w)
}

func (r *Reconciler) deferVia(ctx context.Context, w *v1.Widget) error {
	defer func() { _ = r.deferLeaf(ctx, w) }()
	w.Spec.Size = 3
	return nil
}

func (r *Reconciler) deferLeaf(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// The caller reads, defers its helper's call in a literal, then changes
// the spec.
func (r *Reconciler) Direct(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	defer func() { _ = r.directLeaf(ctx, w) }()
	w.Spec.Size = 3
	return nil
}

func (r *Reconciler) directLeaf(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}
