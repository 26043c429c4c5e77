// Package replay: status decided before the re-read and written after it
// is blind, though the write carries a fresh resourceVersion; the twins
// that recompute from the fresh object are not.
package replay

import (
	"context"

	v1 "example.com/api/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
}

// knative's generated reconcilers: the desired status, computed before,
// copied onto the re-read object.
func (r *Reconciler) replayWhole(ctx context.Context, desired *v1.Widget) error { // want replayWhole:`^statusOnly\[1\]$`
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		latest := &v1.Widget{}
		if err := r.Get(ctx, client.ObjectKeyFromObject(desired), latest); err != nil {
			return err
		}
		latest.Status = desired.Status
		return r.Status().Update(ctx, latest) // want `^blind: Status\(\).Update of Widget: status replayed from before the re-read \(assigned from captured desired\) \(not moved to the patcher: the status assigned at line 27 is decided before the re-read at line 24, and Flush would write the same decision: move the decision into WidgetStatusPatcher\.Retry's mutate, which decides again from the object it re-reads on a conflict\)$`
	})
}

// The same with a patch built from the re-read object.
func (r *Reconciler) replayPatch(ctx context.Context, desired *v1.Widget) error { // want replayPatch:`^statusOnly\[1\]$`
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		latest := &v1.Widget{}
		if err := r.Get(ctx, client.ObjectKeyFromObject(desired), latest); err != nil {
			return err
		}
		patch := client.MergeFromWithOptions(latest.DeepCopyObject().(*v1.Widget), client.MergeFromWithOptimisticLock{})
		latest.Status = desired.Status
		return r.Status().Patch(ctx, latest, patch) // want `^blind: Status\(\).Patch of Widget: status replayed from before the re-read`
	})
}

// Field by field.
func (r *Reconciler) replayFields(ctx context.Context, key client.ObjectKey, desired *v1.Widget) error { // want replayFields:`^statusOnly\[2\]$`
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		latest := &v1.Widget{}
		if err := r.Get(ctx, key, latest); err != nil {
			return err
		}
		latest.Status.Ready = desired.Status.Ready
		latest.Status.Conditions = desired.Status.Conditions
		return r.Status().Update(ctx, latest) // want `^blind: Status\(\).Update of Widget: status replayed from before the re-read \(assigned from captured desired\) \(not moved to the patcher: the status assigned at line 52 is decided before the re-read at line 49, and Flush would write the same decision: move the decision into WidgetStatusPatcher\.Retry's mutate, which decides again from the object it re-reads on a conflict\)$`
	})
}

// A whole status value computed before the retry.
func (r *Reconciler) replayStatusValue(ctx context.Context, key client.ObjectKey, w *v1.Widget) error { // want replayStatusValue:`^statusOnly\[2\]$`
	status := w.Status
	status.Ready = true
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		latest := &v1.Widget{}
		if err := r.Get(ctx, key, latest); err != nil {
			return err
		}
		latest.Status = status
		return r.Status().Update(ctx, latest) // want `^blind: .*status replayed from before the re-read \(assigned from captured status\) \(not moved to the patcher: the status assigned at line 67 is decided before the re-read at line 64, and Flush would write the same decision: move the decision into WidgetStatusPatcher\.Retry's mutate, which decides again from the object it re-reads on a conflict\)$`
	})
}

// Twin: recomputed inside the closure from the fresh object.
func (r *Reconciler) recompute(ctx context.Context, key client.ObjectKey) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		latest := &v1.Widget{}
		if err := r.Get(ctx, key, latest); err != nil {
			return err
		}
		latest.Status.Ready = ready(latest)
		latest.Status.Conditions = append(latest.Status.Conditions, latest.Status.Conditions...)
		return r.Status().Update(ctx, latest) // want `^optimistic: Status\(\).Update of Widget: Update sends the object's resourceVersion$`
	})
}

// Twin: inputs that are external by nature, a fetched result and a
// constant, captured from outside.
func (r *Reconciler) external(ctx context.Context, key client.ObjectKey, fetched bool) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		latest := &v1.Widget{}
		if err := r.Get(ctx, key, latest); err != nil {
			return err
		}
		latest.Status.Ready = fetched
		return r.Status().Update(ctx, latest) // want `^optimistic: `
	})
}

func ready(w *v1.Widget) bool { return len(w.Status.Conditions) > 0 } // want ready:`^statusOnly\[0\]$`

// A patcher's Retry whose mutate replays values captured before it.
func replayRetry(ctx context.Context, p *patcher.Patcher[*v1.Widget], w *v1.Widget) error { // want replayRetry:`^statusOnly\[2\]$`
	desired := w.DeepCopyObject().(*v1.Widget)
	desired.Status.Ready = true
	return p.Retry(ctx, func(live *v1.Widget) error { // want `^blind: Patcher.Retry of Widget: status replayed from before the re-read \(assigned from captured desired\) in Retry's mutate$`
		live.Status.Ready = desired.Status.Ready
		return nil
	})
}

// Twin: mutate recomputes from the live object, or sets an external input.
func recomputeRetry(ctx context.Context, p *patcher.Patcher[*v1.Widget], fetched bool) error {
	return p.Retry(ctx, func(live *v1.Widget) error { // want `^optimistic: Patcher.Retry of Widget: generated patcher \(write mode not seen: patcher from parameter p of recomputeRetry\)$`
		live.Status.Ready = ready(live) && fetched
		live.Status.Conditions = live.Status.Conditions[:0]
		return nil
	})
}

// Twin: no re-read in the closure, so the write carries the resourceVersion
// the status was computed from and conflicts if the object changed.
func (r *Reconciler) noReRead(ctx context.Context, w, desired *v1.Widget) { // want noReRead:`^statusOnly\[2\]$`
	defer func() {
		w.Status = desired.Status
		_ = r.Status().Update(ctx, w) // want `^optimistic: `
	}()
}

// kro's: the re-read's copy written, patched from the re-read, its status
// copied from the reconciled object captured from outside the retry.
func (r *Reconciler) replayCopy(ctx context.Context, o *v1.Widget) error { // want replayCopy:`^statusOnly\[1\]$`
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		current := &v1.Widget{}
		if err := r.Get(ctx, client.ObjectKeyFromObject(o), current); err != nil {
			return err
		}
		dc := current.DeepCopy()
		dc.Status.Conditions = o.Status.Conditions
		return r.Status().Patch(ctx, dc, client.MergeFromWithOptions(current, client.MergeFromWithOptimisticLock{})) // want `^blind: Status\(\).Patch of Widget: status replayed from before the re-read \(assigned from captured o\)`
	})
}

// Its twin decides from the copy of the fresh object: not replayed.
func (r *Reconciler) recomputeCopy(ctx context.Context, key client.ObjectKey) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		current := &v1.Widget{}
		if err := r.Get(ctx, key, current); err != nil {
			return err
		}
		dc := current.DeepCopy()
		dc.Status.Ready = len(dc.Status.Conditions) > 0
		return r.Status().Patch(ctx, dc, client.MergeFromWithOptions(current, client.MergeFromWithOptimisticLock{})) // want `^optimistic: `
	})
}

// Twin: the re-read's own source, captured and read into again, decides
// the copy's status after the re-read: not replayed.
func (r *Reconciler) recomputeCopySource(ctx context.Context, obj *v1.Widget) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := r.Get(ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
			return err
		}
		dc := obj.DeepCopy()
		dc.Status.Conditions = obj.Status.Conditions[:0]
		dc.Status.Ready = ready(obj)
		return r.Status().Patch(ctx, dc, client.MergeFromWithOptions(obj, client.MergeFromWithOptimisticLock{})) // want `^optimistic: `
	})
}

// Twin: a loop re-reading a parameter, the copy decided from it after.
func (r *Reconciler) recomputeCopyLoop(ctx context.Context, w *v1.Widget) error {
	var err error
	for range 3 {
		if err = r.Get(ctx, client.ObjectKeyFromObject(w), w); err != nil {
			return err
		}
		dc := w.DeepCopy()
		dc.Status.Ready = ready(w)
		if err = r.Status().Patch(ctx, dc, client.MergeFromWithOptions(w, client.MergeFromWithOptimisticLock{})); err == nil { // want `^optimistic: `
			return nil
		}
	}
	return err
}

// Twin: a copy of an object read once, decided from the read.
func (r *Reconciler) recomputeCopyOnce(ctx context.Context, key client.ObjectKey) error {
	cur := &v1.Widget{}
	if err := r.Get(ctx, key, cur); err != nil {
		return err
	}
	dc := cur.DeepCopy()
	dc.Status.Ready = ready(cur)
	return r.Status().Patch(ctx, dc, client.MergeFromWithOptions(cur, client.MergeFromWithOptimisticLock{})) // want `^optimistic: `
}

// kro's with DeepCopyObject: the same replay.
func (r *Reconciler) replayCopyObject(ctx context.Context, o *v1.Widget) error { // want replayCopyObject:`^statusOnly\[1\]$`
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		current := &v1.Widget{}
		if err := r.Get(ctx, client.ObjectKeyFromObject(o), current); err != nil {
			return err
		}
		dc := current.DeepCopyObject().(*v1.Widget)
		dc.Status.Conditions = o.Status.Conditions
		return r.Status().Patch(ctx, dc, client.MergeFromWithOptions(current, client.MergeFromWithOptimisticLock{})) // want `^blind: Status\(\).Patch of Widget: status replayed from before the re-read \(assigned from captured o\)`
	})
}
