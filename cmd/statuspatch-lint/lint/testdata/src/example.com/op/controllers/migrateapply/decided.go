package migrateapply

import (
	"context"
	"sync/atomic"

	v1 "example.com/op/api/v1"
	widgetac "example.com/op/api/v1/ac"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Issue 80 (project D's ticket): an apply whose status is decided from the
// status read moves into the patcher's Retry, as the same decision written
// as a merge patch does: on a 409 Retry reads the object again and decides
// again, where a Flush would return the 409 and the next reconcile would
// make its token again.

var sizes atomic.Int64

// Decided: the size kept when the status has one, else a new one; moved
// into Retry, the configuration given to ApplyStatus there, the token
// made once across attempts.
func (r *WidgetReconciler) Decided(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	size := w.Status.Size
	if size == 0 {
		size = int(sizes.Add(1))
	}
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(size))
	return ctrl.Result{}, r.Status().Apply(ctx, ac, client.FieldOwner(owner), client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(owner\)$`
}

// DecidedGuard: an early return when the status is set already gives
// what the write's success gives (nil): mutate's return nil, the whole
// decision in Retry (retdone.go; until s106 it stayed, naming the read).
func (r *WidgetReconciler) DecidedGuard(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if w.Status.Ready {
		return nil
	}
	ready := w.Spec.Size > 0
	return r.Status().Apply(ctx, widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithReady(ready)), client.FieldOwner(owner), client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(owner\)$`
}

// DecidedTyped: a typed apply whose literal's status is decided from the
// status read; moved into Retry.
func (r *WidgetReconciler) DecidedTyped(ctx context.Context, req ctrl.Request) error {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return err
	}
	applied := &v1.Widget{ObjectMeta: metav1.ObjectMeta{Name: w.Name, Namespace: w.Namespace}}
	applied.Status.Size = w.Status.Size + 1
	return r.Status().Patch(ctx, applied, client.Apply, client.FieldOwner(owner), client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(owner\)$`
}

// DecidedInline: the configuration built at the write from the status,
// nothing before it to run again; stays, naming the read.
func (r *WidgetReconciler) DecidedInline(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	return r.Status().Apply(ctx, widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(w.Status.Size+1)), client.FieldOwner(owner), client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(owner\) \(not moved to the patcher: w's status is read at line 72 to decide the status applied, and the configuration is built in the write's own call: a Flush would return the 409 of a stale decision, and the next reconcile decides again; build the configuration in a statement before the write, or move the decision by hand into the patcher's Retry, whose function gives the status to ApplyStatus\)$`
}

// DecidedUsedAfter: the configuration is used again after the write's
// error returned: declared before the Retry, set in its function, it is
// the stored attempt's there; moved (kept before issue 80's carried names).
func (r *WidgetReconciler) DecidedUsedAfter(ctx context.Context, req ctrl.Request) (int, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return 0, err
	}
	size := w.Status.Size + 1
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(size))
	if err := r.Status().Apply(ctx, ac, client.FieldOwner(owner), client.ForceOwnership); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(owner\)$`
		return 0, err
	}
	return *ac.Status.Size, nil
}
