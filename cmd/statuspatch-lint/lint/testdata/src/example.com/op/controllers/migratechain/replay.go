package migratechain

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A chain whose inner helper re-reads the object and writes a status
// decided before that re-read: the replay stays reported, at its depth as
// at one level, and the chain beside it, a write of the same life, stays
// too.
func (r *Reconciler) Replay(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	desired := w.DeepCopy()
	desired.Status.Ready = w.Spec.Size > 0
	if err := r.relay(ctx, w, desired); err != nil {
		return err
	}
	return r.sizeVia(ctx, w)
}

func (r *Reconciler) relay(ctx context.Context, w, desired *v1.Widget) error { // want relay:`^statusOnly\[2\]$`
	return r.refresh(ctx, w, desired)
}

func (r *Reconciler) refresh(ctx context.Context, w, desired *v1.Widget) error { // want refresh:`^statusOnly\[2\]$`
	if err := r.Get(ctx, client.ObjectKeyFromObject(w), w); err != nil {
		return err
	}
	w.Status.Ready = desired.Status.Ready
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\); status replayed from before the re-read \(computed from desired, read before the re-read\) \(not moved to the patcher: the status assigned at line 35 is decided before the re-read at line 32, and Flush would write the same decision: move the decision into WidgetStatusPatcher\.Retry's mutate, which decides again from the object it re-reads on a conflict\)$`
}

func (r *Reconciler) sizeVia(ctx context.Context, w *v1.Widget) error {
	return r.sizeLeaf(ctx, w)
}

func (r *Reconciler) sizeLeaf(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = w.Spec.Size
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\) \(not moved to the patcher: w is a parameter of sizeLeaf: its caller at line 40 hands on w, a parameter of sizeVia, and its caller at line 24: w is passed to Reconciler\.relay at line 21, where w is passed to Reconciler\.refresh at line 28, where its status is written at line 36, a write -fix does not move with the caller's\)$`
}
