// Package migratelockbase: the lock base careful teams take once near the
// read (client.MergeFromWithOptions(obj.DeepCopy(),
// client.MergeFromWithOptimisticLock{}), or a plain client.MergeFrom),
// kept in a variable and reused by two patches, or handed with the object
// to a flush helper. -fix moves the writes with their object: one patcher
// made where the base is taken, each patch its Flush.
package migratelockbase

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type WidgetReconciler struct {
	client.Client
	lastPatch client.Patch
}

// One optimistic patch, reused by two patches.
func (r *WidgetReconciler) twoPatches(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	statusBase := client.MergeFromWithOptions(w.DeepCopy(), client.MergeFromWithOptimisticLock{})
	w.Status.Size = 1
	if err := r.Status().Patch(ctx, w, statusBase); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, statusBase) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// A plain (blind) merge patch reused: moved, so locked.
func (r *WidgetReconciler) twoBlind(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	patch := client.MergeFrom(w.DeepCopy())
	w.Status.Size = 2
	if err := r.Status().Patch(ctx, w, patch); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	w.Status.Ready = false
	return r.Status().Patch(ctx, w, patch) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// The copy kept in a variable of its own, the patch built from it.
func (r *WidgetReconciler) copyThenBase(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	orig := w.DeepCopy()
	statusBase := client.MergeFromWithOptions(orig, client.MergeFromWithOptimisticLock{})
	w.Status.Size = 3
	if err := r.Status().Patch(ctx, w, statusBase); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, statusBase) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// flush is handed the object and the base taken once.
func (r *WidgetReconciler) flush(ctx context.Context, w *v1.Widget, base client.Patch) error {
	return r.Status().Patch(ctx, w, base) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func (r *WidgetReconciler) viaFlush(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	statusBase := client.MergeFromWithOptions(w.DeepCopy(), client.MergeFromWithOptimisticLock{})
	w.Status.Size = 4
	if err := r.flush(ctx, w, statusBase); err != nil {
		return err
	}
	w.Status.Ready = true
	return r.flush(ctx, w, statusBase)
}

// The patch also handed to something else: it stays.
func (r *WidgetReconciler) usedElsewhere(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	patch := client.MergeFromWithOptions(w.DeepCopy(), client.MergeFromWithOptimisticLock{})
	w.Status.Size = 5
	if err := r.Status().Patch(ctx, w, patch); err != nil { // want `\(not moved to the patcher: the patch patch is used elsewhere: at line 97, other than as the patch of a status write of w\)$`
		return err
	}
	r.lastPatch = patch
	return nil
}

// The patch reused for another object: it stays, and gets no lock: w2
// is a copy taken before w is written, which moves the resourceVersion.
func (r *WidgetReconciler) otherObject(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	patch := client.MergeFrom(w.DeepCopy())
	w2 := w.DeepCopy()
	w.Status.Size = 6
	if err := r.Status().Patch(ctx, w, patch); err != nil { // want `\(not moved to the patcher: the patch patch is used elsewhere: at line 114, other than as the patch of a status write of w\) \(no fix: the base w.DeepCopy\(\) is taken at line 108, before the write of w at line 111, which moves the resourceVersion a lock would send; the same patch is sent again after it, at line 114: locked, that write would conflict`
		return err
	}
	return r.Status().Patch(ctx, w2, patch) // want `^handwritten status write to Widget`
}

// The object written is a copy of the base (lws's scaler status): the
// patcher is made on the copy; the base is a value of a map the model
// cannot show fresh, so the decision goes into Retry (migrateorigin).
func (r *WidgetReconciler) copyOfBase(ctx context.Context, scalers map[string]*v1.Widget) error {
	for _, s := range scalers {
		desired := s.DeepCopy()
		desired.Status.Size = s.Spec.Size + 7
		if err := r.Status().Patch(ctx, desired, client.MergeFromWithOptions(s, client.MergeFromWithOptimisticLock{})); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return err
		}
	}
	return nil
}

// The base changed after the copy: it stays.
func (r *WidgetReconciler) baseChanged(ctx context.Context, s *v1.Widget) error {
	desired := s.DeepCopy()
	s.Status.Ready = true
	desired.Status.Size = 8
	return r.Status().Patch(ctx, desired, client.MergeFrom(s)) // want `\(not moved to the patcher: the base s is a parameter of baseChanged: the patcher is made where its callers take it; move the write there\)$`
}
