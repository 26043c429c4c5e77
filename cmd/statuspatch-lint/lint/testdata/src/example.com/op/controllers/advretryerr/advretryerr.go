// Package advretryerr: a decision with an error exit (issue 80). Where
// the write's own error is returned as the decision's is (`if err :=
// write; err != nil { return ctrl.Result{}, err }`, `return
// ctrl.Result{}, write`, `return write`), the function returns the same
// values whether the decision or the write failed: the exit is mutate's
// `return err`, which Retry returns unchanged. An exit returning other
// values stays before a Flush, and the fix's message names its lines,
// the exit and that the next reconcile decides again.
package advretryerr

import (
	"context"
	"errors"
	"fmt"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct {
	client.Client
}

// nextSize decides from the status, and fails on a bad one.
func nextSize(w *v1.Widget) (int, error) { // want nextSize:`^statusOnly\[0\]$`
	if w.Status.Size < 0 {
		return 0, errors.New("negative size")
	}
	return w.Status.Size + 1, nil
}

// check fails on a bad status.
func check(w *v1.Widget) error { // want check:`^statusOnly\[0\]$`
	if w.Status.Size > 100 {
		return errors.New("too big")
	}
	return nil
}

// Moved: the decision's error exit returns what the write's does.
func (r *R) plan(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	size, err := nextSize(w)
	if err != nil {
		return ctrl.Result{}, err
	}
	w.Status.Size = size
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// Moved: an error-only function ending in `return <write>`, the exit a
// check's `if err := ...; err != nil { return err }`.
func (r *R) bump(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if err := check(w); err != nil {
		return err
	}
	w.Status.Size = w.Status.Size + 1
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// Moved: the write returned with the same zeros, the exit a new error.
func (r *R) inline(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	if w.Status.Size > 10 {
		return ctrl.Result{}, fmt.Errorf("widget %s: size %d", w.Name, w.Status.Size)
	}
	w.Status.Ready = w.Status.Size > 1
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// Flush, noted: the exit requeues with no error, which mutate's return
// cannot give.
func (r *R) requeue(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	size, err := nextSize(w)
	if err != nil {
		return ctrl.Result{Requeue: true}, nil
	}
	w.Status.Size = size
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// Flush, noted: the write's error is wrapped, the decision's is not.
func (r *R) wrapped(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	if err := check(w); err != nil {
		return ctrl.Result{}, err
	}
	w.Status.Size = w.Status.Size + 1
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return ctrl.Result{}, fmt.Errorf("status: %w", err)
	}
	return ctrl.Result{}, nil
}

// Flush, noted: a multi-value result the exit gives from the decision.
func (r *R) result(ctx context.Context, req ctrl.Request) (int, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return 0, err
	}
	if w.Status.Size > 10 {
		return w.Status.Size, nil
	}
	w.Status.Size = w.Status.Size + 1
	return w.Status.Size, r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// Flush, noted: a defer in the decision, given a value of the status.
func (r *R) deferred(ctx context.Context, req ctrl.Request, done func(int)) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	old := w.Status.Size
	defer done(old)
	w.Status.Size = old + 1
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// Flush, no note: the decision reads no status.
func (r *R) spec(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if w.Spec.Size < 0 {
		return errors.New("negative")
	}
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}
