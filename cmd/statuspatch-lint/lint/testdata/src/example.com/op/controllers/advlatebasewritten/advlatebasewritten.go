// Package advlatebasewritten: a merge patch's base taken after the
// status changes is late (the patch sends none of them) only when no
// write or read of the object comes between (issue 80, helper T's gap
// 4). At ae27bc6 an object given by address (r.Status().Update(ctx,
// &w), r.Get(ctx, key, &w)) was not seen as handed to the call, so the
// base taken after an Update and a re-Get was called late, and the fix
// said "an empty patch, which wrote none of them" of a patch that sends
// the change made after the base.
package advlatebasewritten

import (
	"context"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct {
	client.Client
}

// The change before the base is the Update's, the base is the re-Get's:
// the patch sends Ready, a change after its base. Not late.
func (r *R) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if w.Status.Size == 0 {
		w.Status.Size = 1
		if err := r.Status().Update(ctx, &w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
			return ctrl.Result{}, err
		}
		if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
			return ctrl.Result{}, err
		}
	}
	base := w.DeepCopy()
	w.Status.Ready = true
	if err := r.Status().Patch(ctx, &w, client.MergeFrom(base)); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// A base taken right after the change, nothing between: the patch sends
// nothing, a late base (the fix says so and makes the patcher at the read).
func (r *R) late(ctx context.Context, key client.ObjectKey) error {
	var w v1.Widget
	if err := r.Get(ctx, key, &w); err != nil {
		return err
	}
	w.Status.Ready = true
	base := w.DeepCopy()
	return r.Status().Patch(ctx, &w, client.MergeFrom(base)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)`
}
