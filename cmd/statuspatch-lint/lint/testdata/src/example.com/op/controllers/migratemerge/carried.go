package migratemerge

import (
	"context"
	"fmt"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Issue 80: a merge patch's decision from the status that declares what
// the code after the write uses (a requeue interval, a message) moves
// into Retry, the name declared before it (a Flush before).

// MergeCarried: the message decided with the status, used after the
// write's error check; moved into Retry.
func (r *WidgetReconciler) MergeCarried(ctx context.Context, req ctrl.Request) (string, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return "", err
	}
	base := w.DeepCopy()
	w.Status.Size = w.Status.Size + 1
	msg := fmt.Sprintf("size %d", w.Status.Size)
	err := r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
	if err != nil {
		return "", err
	}
	return msg, nil
}

// MergeCarriedVar: the result declared by a var first in the decision,
// set on each run; moved into Retry.
func (r *WidgetReconciler) MergeCarriedVar(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	base := w.DeepCopy()
	var result ctrl.Result
	w.Status.Ready = w.Status.Size > 0
	result = ctrl.Result{Requeue: w.Status.Size > 3}
	if err := r.Status().Patch(ctx, w, client.MergeFrom(base)); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	return result, nil
}
