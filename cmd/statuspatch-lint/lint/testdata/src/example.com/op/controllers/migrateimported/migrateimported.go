// Package migrateimported: the patchers are imported already (under
// another name), or generated into the object's own package; the fix uses
// the file's name for them and adds no import.
package migrateimported

import (
	"context"

	v1 "example.com/api/v1"
	opv1 "example.com/op/api/v1"
	wp "example.com/op/internal/patchers"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
	done *wp.WidgetStatusPatcher
}

func (r *Reconciler) Reconcile(ctx context.Context, key client.ObjectKey) error {
	obj := new(opv1.Widget)
	if err := r.Get(ctx, key, obj); err != nil {
		return err
	}
	base := obj.DeepCopy()
	obj.Status.Ready = true
	if err := r.Status().Patch(ctx, obj, client.MergeFrom(base)); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	return r.done.Flush(ctx)
}

// The patcher generated beside the type, in example.com/api/v1.
func update(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.ObservedGeneration = w.Generation
	return c.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/api/v1\)$`
}

// In a closure: the patcher is made and flushed inside it.
func closure(ctx context.Context, c client.Client, key client.ObjectKey) func() error {
	return func() error {
		w := &v1.Widget{}
		if err := c.Get(ctx, key, w); err != nil {
			return err
		}
		w.Status.Ready = true
		return c.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/api/v1\)$`
	}
}
