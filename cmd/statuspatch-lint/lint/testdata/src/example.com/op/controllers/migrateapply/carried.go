package migrateapply

import (
	"context"
	"fmt"

	v1 "example.com/op/api/v1"
	widgetac "example.com/op/api/v1/ac"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Issue 80 (project D's Quota): a name the decision declares, or sets
// when declared before it, used after the write (a requeue interval, a
// message). The decision moves into Retry with the name declared before
// the Retry and set in its function, when each use after the write runs
// after Retry returns nil: the value is the stored attempt's.

// Carried: D's shape, the requeue interval decided with the status and
// returned after the write's error returned; moved.
func (r *WidgetReconciler) Carried(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	size := w.Status.Size
	if size == 0 {
		size = w.Spec.Size
	}
	result := ctrl.Result{Requeue: size > 3}
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(size))
	if err := r.Status().Apply(ctx, ac, client.FieldOwner(owner), client.ForceOwnership); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(owner\)$`
		return ctrl.Result{}, fmt.Errorf("apply widget %s status: %w", req.NamespacedName, err)
	}
	return result, nil
}

// CarriedOuter: the result declared before the read, set at the
// decision's top level on each run; moved.
func (r *WidgetReconciler) CarriedOuter(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var result ctrl.Result
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return result, client.IgnoreNotFound(err)
	}
	size := w.Status.Size + 1
	result = ctrl.Result{Requeue: size > 3}
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(size))
	if err := r.Status().Apply(ctx, ac, client.FieldOwner(owner), client.ForceOwnership); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(owner\)$`
		return ctrl.Result{}, err
	}
	return result, nil
}

// CarriedOnError: the result returned with the write's error too, where
// Retry's failed attempt is not the one the handwritten code made; stays.
func (r *WidgetReconciler) CarriedOnError(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	size := w.Status.Size + 1
	result := ctrl.Result{Requeue: size > 3}
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(size))
	if err := r.Status().Apply(ctx, ac, client.FieldOwner(owner), client.ForceOwnership); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(owner\) \(not moved to the patcher: w's status is read at line 62 to decide the status applied, and the decision cannot become Retry's function: result is used at line 66 on the write's error path, where it would hold Retry's last failed attempt's value, not the decision the handwritten write failed with: a Flush would return the 409 of a stale decision, and the next reconcile decides again; move the decision by hand into the patcher's Retry, whose function gives the status to ApplyStatus\)$`
		return result, err
	}
	return result, nil
}

// CarriedCaptured: the message captured by a function literal after the
// write; stays.
func (r *WidgetReconciler) CarriedCaptured(ctx context.Context, req ctrl.Request) (func() string, error) {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return nil, err
	}
	size := w.Status.Size + 1
	msg := fmt.Sprintf("size %d", size)
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(size))
	if err := r.Status().Apply(ctx, ac, client.FieldOwner(owner), client.ForceOwnership); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(owner\) \(not moved to the patcher: w's status is read at line 78 to decide the status applied, and the decision cannot become Retry's function: msg, used after the write, is captured by the function literal at line 84: which attempt's value it reads is not seen: a Flush would return the 409 of a stale decision, and the next reconcile decides again; move the decision by hand into the patcher's Retry, whose function gives the status to ApplyStatus\)$`
		return nil, err
	}
	return func() string { return msg }, nil
}

// CarriedSometimes: the result declared before the decision and set only
// when the size grows: an attempt that does not set it keeps the one
// before's; stays.
func (r *WidgetReconciler) CarriedSometimes(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var result ctrl.Result
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return result, client.IgnoreNotFound(err)
	}
	size := w.Status.Size + 1
	if size > w.Spec.Size {
		result = ctrl.Result{Requeue: true}
	}
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(size))
	if err := r.Status().Apply(ctx, ac, client.FieldOwner(owner), client.ForceOwnership); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(owner\) \(not moved to the patcher: w's status is read at line 96 to decide the status applied, and its decision cannot move into Retry: it sets result at line 98, declared outside it: Retry's function may run more than once, and each run's effect on result would stay: a Flush would return the 409 of a stale decision, and the next reconcile decides again; move the decision by hand into the patcher's Retry, whose function gives the status to ApplyStatus\)$`
		return ctrl.Result{}, err
	}
	return result, nil
}

// CarriedUnchecked: the write's error returned with the message, which
// the failed write reaches too; stays.
func (r *WidgetReconciler) CarriedUnchecked(ctx context.Context, req ctrl.Request) (string, error) {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return "", err
	}
	size := w.Status.Size + 1
	msg := fmt.Sprintf("size %d", size)
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(size))
	err := r.Status().Apply(ctx, ac, client.FieldOwner(owner), client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(owner\) \(not moved to the patcher: w's status is read at line 114 to decide the status applied, and the decision cannot become Retry's function: msg, set in the decision and used at line 118, would hold the failed attempt's value when the write fails: no return ends the write's error before it: a Flush would return the 409 of a stale decision, and the next reconcile decides again; move the decision by hand into the patcher's Retry, whose function gives the status to ApplyStatus\)$`
	return msg, err
}
