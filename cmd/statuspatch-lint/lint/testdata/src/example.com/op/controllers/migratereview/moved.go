package migratereview

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A reused base patched in a loop: each Flush sends the step's change.
func (r *Reconciler) reuseInLoop(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	base := client.MergeFromWithOptions(w.DeepCopy(), client.MergeFromWithOptimisticLock{})
	for i := 0; i < 3; i++ {
		w.Status.Size = i
		if err := r.Status().Patch(ctx, w, base); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return err
		}
	}
	return nil
}

// A reused base patched in a closure called twice.
func (r *Reconciler) reuseInClosure(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	base := client.MergeFromWithOptions(w.DeepCopy(), client.MergeFromWithOptimisticLock{})
	write := func() error {
		return r.Status().Patch(ctx, w, base) // want `\(not moved to the patcher: the patch base is not client.MergeFrom\(w.DeepCopy\(\)\) taken in the function literal at line 33\)$`
	}
	w.Status.Size = 1
	if err := write(); err != nil {
		return err
	}
	w.Status.Ready = true
	return write()
}

// The first patch's error dropped: the second patch of the reused base
// still sends the first one's change.
func (r *Reconciler) reuseErrDropped(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	base := client.MergeFromWithOptions(w.DeepCopy(), client.MergeFromWithOptimisticLock{})
	w.Status.Size = 1
	_ = r.Status().Patch(ctx, w, base) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, base) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// The object re-read between two patches of a reused base.
func (r *Reconciler) reuseReread(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	base := client.MergeFromWithOptions(w.DeepCopy(), client.MergeFromWithOptimisticLock{})
	w.Status.Size = 1
	if err := r.Status().Patch(ctx, w, base); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, base) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// Copies patched against their sources in goroutines.
func (r *Reconciler) copiesInGoroutines(ctx context.Context, scalers []*v1.Widget) {
	for _, s := range scalers {
		go func() {
			desired := s.DeepCopy()
			desired.Status.Size = s.Spec.Size
			_ = r.Status().Patch(ctx, desired, client.MergeFromWithOptions(s, client.MergeFromWithOptimisticLock{})) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		}()
	}
}
