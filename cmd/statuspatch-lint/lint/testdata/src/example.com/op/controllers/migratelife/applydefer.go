package migratelife

import (
	"context"
	"fmt"

	v1 "example.com/op/api/v1"
	widgetac "example.com/op/api/v1/ac"
	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A deferred write runs as the function returns, after every write of
// the body: after an apply too. Guarded by the named result (retErr ==
// nil → return), it runs only on the returns that may give an error.
// The apply moves onto a patcher in apply mode made right before it
// when each of those returns after it is the apply's own failure (its
// Flush stored nothing: the merge patcher's lock still holds); else it
// stays, naming the return (issue 80 A, at f912d10: kept for "in the
// function literal at line N, which may run after the apply or not at
// all").

// Kubebuilder's tutorial with a deferred error condition and an
// unstructured apply of the summary (the new user's project A).
func (r *OrderReconciler) deferGuarded(ctx context.Context, req ctrl.Request) (_ ctrl.Result, retErr error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		if retErr == nil {
			return
		}
		order.Status.Ready = false
		if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			logr.FromContextOrDiscard(ctx).Error(err, "record the error")
		}
	}()
	order.Status.Ready = true
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("example.com/v1")
	u.SetKind("Widget")
	u.SetNamespace(order.Namespace)
	u.SetName(order.Name)
	if err := unstructured.SetNestedField(u.Object, fmt.Sprintf("%d items", order.Spec.Size), "status", "summary"); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner("me"), client.ForceOwnership); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\("me"\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// The guard as an if around the write, on a named result called err,
// and the apply's error returned as the function's: the deferred write
// runs after the apply only when the apply failed.
func (r *OrderReconciler) deferErrSet(ctx context.Context, req ctrl.Request) (err error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	defer func() {
		if err != nil && order.Status.Ready {
			order.Status.Ready = false
			_ = r.Status().Update(ctx, order) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		}
	}()
	order.Status.Ready = true
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	return r.Status().Apply(ctx, widgetac.Widget(order.Name, order.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(3)), client.FieldOwner("me"), client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\("me"\)$`
}

// The named result set by the apply and checked, then a bare return:
// it is the apply's error on every path after it.
func (r *OrderReconciler) deferResultApply(ctx context.Context, req ctrl.Request) (retErr error) {
	order := &v1.Widget{}
	if retErr = r.Get(ctx, req.NamespacedName, order); retErr != nil {
		return
	}
	defer func() {
		if retErr != nil {
			order.Status.Ready = false
			_ = r.Status().Update(ctx, order) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		}
	}()
	order.Status.Ready = true
	if retErr = r.Status().Update(ctx, order); retErr != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return
	}
	retErr = r.Status().Apply(ctx, widgetac.Widget(order.Name, order.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(3)), client.FieldOwner("me"), client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\("me"\)$`
	if retErr != nil {
		logr.FromContextOrDiscard(ctx).Error(retErr, "apply")
	}
	return
}

// Unguarded: the deferred write runs after the apply stored, its lock
// older than the apply's write. The apply stays, naming both.
func (r *OrderReconciler) deferAlways(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	defer func() {
		_ = r.Status().Update(ctx, order) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
	}()
	order.Status.Ready = true
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	return r.Status().Apply(ctx, widgetac.Widget(order.Name, order.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(3)), client.FieldOwner("me"), client.ForceOwnership) // want `\(not moved to the patcher: order's status is also written at line 112 \(Status\(\)\.Update\), in the function deferred at line 111, which may run whatever the function returns, after the apply stored too: its merge patcher's lock would be older than the apply's write; guard it with a named error result`
}

// Guarded, but an error returned after the apply stored: the deferred
// write runs then, its lock older than the apply's write. The apply
// stays, naming that return.
func (r *OrderReconciler) deferLaterError(ctx context.Context, req ctrl.Request) (retErr error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	defer func() {
		if retErr == nil {
			return
		}
		order.Status.Ready = false
		_ = r.Status().Update(ctx, order) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
	}()
	order.Status.Ready = true
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	if err := r.Status().Apply(ctx, widgetac.Widget(order.Name, order.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(3)), client.FieldOwner("me"), client.ForceOwnership); err != nil { // want `\(not moved to the patcher: order's status is also written at line 134 \(Status\(\)\.Update\), in the function deferred at line 129, which runs when retErr is not nil as the function returns, as it may be at line 144 after the apply stored: its merge patcher's lock would be older than the apply's write; return only the apply's error after it`
		return err
	}
	if order.Spec.Size > 3 {
		return fmt.Errorf("too big")
	}
	return nil
}

// The named result changed by another deferred function, which runs
// first: the guard tells nothing. The apply stays.
func (r *OrderReconciler) deferResultChanged(ctx context.Context, req ctrl.Request) (retErr error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	defer func() {
		if retErr != nil {
			order.Status.Ready = false
			_ = r.Status().Update(ctx, order) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		}
	}()
	defer func() {
		if recover() != nil {
			retErr = fmt.Errorf("panicked")
		}
	}()
	order.Status.Ready = true
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	return r.Status().Apply(ctx, widgetac.Widget(order.Name, order.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(3)), client.FieldOwner("me"), client.ForceOwnership) // want `\(not moved to the patcher: order's status is also written at line 159 \(Status\(\)\.Update\), in the function deferred at line 156, which runs when retErr is not nil as the function returns, and retErr is also set at line 164: whether it runs after the apply stored is not known`
}

// A deferred method of the reconciler given the result's address: its
// body writes the status when the error is not nil.
func (r *OrderReconciler) deferMethod(ctx context.Context, req ctrl.Request) (retErr error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	defer r.recordError(ctx, order, &retErr)
	order.Status.Ready = true
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	if err := r.Status().Apply(ctx, widgetac.Widget(order.Name, order.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(3)), client.FieldOwner("me"), client.ForceOwnership); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\("me"\)$`
		return err
	}
	return nil
}

func (r *OrderReconciler) recordError(ctx context.Context, order *v1.Widget, errp *error) {
	if *errp == nil {
		return
	}
	order.Status.Ready = false
	_ = r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
}

// A deferred literal handing the result's value, as the function
// returns, to a method that writes only when it is not nil.
func (r *OrderReconciler) deferLitHelper(ctx context.Context, req ctrl.Request) (retErr error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	defer func() { r.recordErrorValue(ctx, order, retErr) }()
	order.Status.Ready = true
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	return r.Status().Apply(ctx, widgetac.Widget(order.Name, order.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(3)), client.FieldOwner("me"), client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\("me"\)$`
}

// The same method deferred itself: its argument is the result's value
// when deferred (nil), not as the function returns. The model cannot
// show when it writes: the apply stays.
func (r *OrderReconciler) deferValue(ctx context.Context, req ctrl.Request) (retErr error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	defer r.recordErrorValue(ctx, order, retErr)
	order.Status.Ready = true
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	return r.Status().Apply(ctx, widgetac.Widget(order.Name, order.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(3)), client.FieldOwner("me"), client.ForceOwnership) // want `\(not moved to the patcher: order's status is also written at line 223 by OrderReconciler.recordErrorValue, in the function deferred at line 223, which may run whatever the function returns, after the apply stored too`
}

func (r *OrderReconciler) recordErrorValue(ctx context.Context, order *v1.Widget, err error) {
	if err != nil {
		order.Status.Ready = false
		_ = r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
	}
}

// A method writing the status after the apply, in the body: its
// patcher's lock would be older than the apply's write. The apply
// stays, naming it.
func (r *OrderReconciler) helperAfter(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	if err := r.Status().Apply(ctx, widgetac.Widget(order.Name, order.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(3)), client.FieldOwner("me"), client.ForceOwnership); err != nil { // want `\(not moved to the patcher: order's status is also written at line 249 by OrderReconciler.recordErrorValue: a patcher in apply mode made at the read for this write would be alive at once with that write's`
		return err
	}
	r.recordErrorValue(ctx, order, fmt.Errorf("done"))
	return nil
}

// The status set in memory between the last merge write and the apply
// (the value the apply sends): a patcher made right before the apply
// would take it as its base, and its apply would send nothing. The
// apply stays, naming the line (a review of s86a: "1 items" stored on
// every reconcile).
func (r *OrderReconciler) changedBeforeApply(ctx context.Context, req ctrl.Request) (retErr error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	order.Status.Ready = true
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)`
		return err
	}
	order.Status.Size = order.Spec.Size
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("example.com/v1")
	u.SetKind("Widget")
	u.SetNamespace(order.Namespace)
	u.SetName(order.Name)
	if err := unstructured.SetNestedField(u.Object, int64(order.Spec.Size), "status", "size"); err != nil {
		return err
	}
	return r.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner("me"), client.ForceOwnership) // want `^handwritten status write to Widget: .*\(not moved to the patcher: order may be changed after its last status write, at line 267: a patcher in apply mode made right before the apply would take that change as its base, and the apply would not send it; make the change after the apply, or make the writes applies\)$`
}

// The named result set by a closure the body made, called from a second
// deferred function registered after the write's (it runs first): the
// deferred write may run after the apply stored. The apply stays.
func (r *OrderReconciler) closureSetsResult(ctx context.Context, req ctrl.Request) (retErr error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	fail := func(e error) { retErr = e }
	defer func() {
		if retErr == nil {
			return
		}
		order.Status.Ready = false
		_ = r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
	}()
	defer func() {
		if order.Spec.Size > 10 {
			fail(fmt.Errorf("too many: %d", order.Spec.Size))
		}
	}()
	order.Status.Ready = true
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget`
		return err
	}
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("example.com/v1")
	u.SetKind("Widget")
	u.SetNamespace(order.Namespace)
	u.SetName(order.Name)
	if err := unstructured.SetNestedField(u.Object, int64(order.Spec.Size), "status", "size"); err != nil {
		return err
	}
	return r.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner("me"), client.ForceOwnership) // want `^handwritten status write to Widget: .*\(not moved to the patcher: order's status is also written at line 293 \(Status\(\).Update\), in the function deferred at line 288, which runs when retErr is not nil as the function returns, and retErr is also set at line 287: whether it runs after the apply stored is not known`
}

// The same through a pointer to the result taken in the body.
func (r *OrderReconciler) pointerSetsResult(ctx context.Context, req ctrl.Request) (retErr error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	errp := &retErr
	defer func() {
		if retErr == nil {
			return
		}
		order.Status.Ready = false
		_ = r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
	}()
	defer func() {
		if order.Spec.Size > 10 {
			*errp = fmt.Errorf("too many: %d", order.Spec.Size)
		}
	}()
	order.Status.Ready = true
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget`
		return err
	}
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("example.com/v1")
	u.SetKind("Widget")
	u.SetNamespace(order.Namespace)
	u.SetName(order.Name)
	if err := unstructured.SetNestedField(u.Object, int64(order.Spec.Size), "status", "size"); err != nil {
		return err
	}
	return r.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner("me"), client.ForceOwnership) // want `^handwritten status write to Widget: .*\(not moved to the patcher: order's status is also written at line 327 \(Status\(\).Update\), in the function deferred at line 322, which runs when retErr is not nil as the function returns, and retErr is also set at line 321: whether it runs after the apply stored is not known`
}

// The apply's error changed after it by a closure, then returned: the
// function may return an error after the apply stored, and the deferred
// write then runs after it. The apply stays.
func (r *OrderReconciler) applyErrByClosure(ctx context.Context, req ctrl.Request) (retErr error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	defer func() {
		if retErr == nil {
			return
		}
		order.Status.Ready = false
		_ = r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
	}()
	order.Status.Ready = true
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget`
		return err
	}
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("example.com/v1")
	u.SetKind("Widget")
	u.SetNamespace(order.Namespace)
	u.SetName(order.Name)
	if err := unstructured.SetNestedField(u.Object, int64(order.Spec.Size), "status", "size"); err != nil {
		return err
	}
	err := r.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner("me"), client.ForceOwnership) // want `^handwritten status write to Widget: .*in the function deferred at line 357, which runs when retErr is not nil as the function returns, as it may be at line 383 after the apply stored`
	check := func() {
		if order.Spec.Size > 10 {
			err = fmt.Errorf("too many: %d", order.Spec.Size)
		}
	}
	if err != nil {
		return err
	}
	check()
	return err
}

// The deferred write's own literal joins its error into the result, and
// the function ends in a bare return after the apply: the result is nil
// there (the literal runs after it), so the deferred write runs after
// the apply only when the apply failed. The apply moves.
func (r *OrderReconciler) joinBare(ctx context.Context, req ctrl.Request) (retErr error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return client.IgnoreNotFound(err)
	}
	defer func() {
		if retErr == nil {
			return
		}
		order.Status.Ready = false
		if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget`
			retErr = fmt.Errorf("%w; record it: %w", retErr, err)
		}
	}()
	order.Status.Ready = true
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget`
		return err
	}
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("example.com/v1")
	u.SetKind("Widget")
	u.SetNamespace(order.Namespace)
	u.SetName(order.Name)
	if err := unstructured.SetNestedField(u.Object, int64(order.Spec.Size), "status", "size"); err != nil {
		return err
	}
	if err := r.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner("me"), client.ForceOwnership); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\("me"\)$`
		return err
	}
	return
}

// The named result set twice by another deferred function: the reason
// names the first place it is set (a walk that stops at the first).
func (r *OrderReconciler) deferResultSetTwice(ctx context.Context, req ctrl.Request) (retErr error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	defer func() {
		if retErr != nil {
			order.Status.Ready = false
			_ = r.Status().Update(ctx, order) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		}
	}()
	defer func() {
		if recover() != nil {
			retErr = fmt.Errorf("panicked")
		}
		retErr = fmt.Errorf("order %s: %w", req.Name, retErr)
	}()
	order.Status.Ready = true
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	return r.Status().Apply(ctx, widgetac.Widget(order.Name, order.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(3)), client.FieldOwner("me"), client.ForceOwnership) // want `, and retErr is also set at line 440: whether it runs after the apply stored is not known`
}
