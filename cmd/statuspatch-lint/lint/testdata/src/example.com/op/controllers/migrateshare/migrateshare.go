// Package migrateshare: a reference into the spec assigned into the
// object's own status (karpenter's cb.Status.ProvisioningStrategy =
// cb.Spec.ProvisioningStrategy): the status shares the spec's pointer.
// When nothing writes through it before the write, the write moves; a
// write through it, the object handed on, a loop around, or a function
// literal keeps it, naming the use.
package migrateshare

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct{ client.Client }

// Only read after: moved.
func (r *Reconciler) shared(ctx context.Context, w *v1.Widget) error {
	stored := w.DeepCopy()
	w.Status.PodName = w.Spec.PodName
	if w.Status.PodName != nil && *w.Status.PodName == "main" {
		w.Status.Ready = true
	}
	w.Status.Size = len(w.Status.Conditions)
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// Written through after: kept.
func (r *Reconciler) writtenThrough(ctx context.Context, w *v1.Widget) error {
	stored := w.DeepCopy()
	w.Status.PodName = w.Spec.PodName
	*w.Status.PodName = "renamed"
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: w.Spec may be changed at line \d+: w.Status.PodName shares the pointer of w.Spec.PodName at line \d+, and w.Status.PodName is used at line \d+, which may write through it`
}

func rename(o *v1.Widget) { // want rename:`statusOnly\[0\]`
	if o.Status.PodName != nil {
		*o.Status.PodName = "renamed"
	}
}

// Handed to a function after (whose change of the status is, alone, a
// status change): kept.
func (r *Reconciler) handedOn(ctx context.Context, w *v1.Widget) error {
	stored := w.DeepCopy()
	w.Status.PodName = w.Spec.PodName
	rename(w)
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: w.Spec may be changed at line \d+: w.Status.PodName shares the pointer of w.Spec.PodName at line \d+, and w is passed on at line \d+, which may write through it`
}

// In a loop whose next turn writes through it: kept.
func (r *Reconciler) looped(ctx context.Context, w *v1.Widget, names []string) error {
	stored := w.DeepCopy()
	for _, n := range names {
		if w.Status.PodName != nil {
			*w.Status.PodName = n
		}
		w.Status.PodName = w.Spec.PodName
	}
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: w.Spec may be changed at line \d+: w.Status.PodName shares the pointer of w.Spec.PodName at line \d+, and w.Status.PodName is used at line \d+, which may write through it`
}

// A function literal made before, called after: kept.
func (r *Reconciler) closure(ctx context.Context, w *v1.Widget) error {
	stored := w.DeepCopy()
	set := func() { *w.Status.PodName = "z" }
	w.Status.PodName = w.Spec.PodName
	set()
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: .*w.Status.PodName shares the pointer of w.Spec.PodName, and w is used in the function literal at line \d+, which may write through it`
}
