package migratereview

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func (r *Reconciler) onceThenUpdate(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	base := client.MergeFromWithOptions(w.DeepCopy(), client.MergeFromWithOptimisticLock{})
	w.Status.Size = 1
	if err := r.Status().Patch(ctx, w, base); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func (r *Reconciler) baseBeforeGet(ctx context.Context, key client.ObjectKey, w *v1.Widget) error {
	base := w.DeepCopy()
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Size = 1
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `\(not moved to the patcher: w is read again with Get at line 26, after the base its write at line 30 is made from: the patcher's base would be the object before that read\)$`
}

func (r *Reconciler) patchBeforeGet(ctx context.Context, key client.ObjectKey, w *v1.Widget) error {
	patch := client.MergeFrom(w.DeepCopy())
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Size = 1
	return r.Status().Patch(ctx, w, patch) // want `\(not moved to the patcher: w is read again with Get at line 35, after the base its write at line 39 is made from: the patcher's base would be the object before that read\)$`
}
