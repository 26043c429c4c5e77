package migratereview

import (
	"context"
	"maps"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A reused base's patches, then an Update of the same object.
func (r *Reconciler) reuseThenUpdate(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	base := client.MergeFromWithOptions(w.DeepCopy(), client.MergeFromWithOptimisticLock{})
	w.Status.Size = 1
	if err := r.Status().Patch(ctx, w, base); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	w.Status.Size = 2
	if err := r.Status().Patch(ctx, w, base); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// The object's labels copied into its spec's: stays.
func (r *Reconciler) copiesOwnLabels(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	maps.Copy(w.Spec.Labels, w.Labels)
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w.Spec may be changed at line 36: w.Spec.Labels, a reference into the object, is passed to maps.Copy`
}

// A copied base, then a second copy-based patch of the same object.
func (r *Reconciler) twoPatchesOneOrig(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	orig := w.DeepCopy()
	p1 := client.MergeFromWithOptions(orig, client.MergeFromWithOptimisticLock{})
	w.Status.Size = 1
	if err := r.Status().Patch(ctx, w, p1); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	p2 := client.MergeFromWithOptions(orig, client.MergeFromWithOptimisticLock{})
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, p2) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// orig copied before the Get that fills the object.
func (r *Reconciler) origBeforeGet(ctx context.Context, key client.ObjectKey, w *v1.Widget) error {
	orig := w.DeepCopy()
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	patch := client.MergeFrom(orig)
	w.Status.Size = 1
	return r.Status().Patch(ctx, w, patch) // want `\(not moved to the patcher: w is read again with Get at line 61, after the base its write at line 66 is made from: the patcher's base would be the object before that read\)$`
}
