// Package migrateguarddone: the commonest guard, an early "nothing to
// do" return whose values are those the function returns when the write
// succeeds: in mutate it is return nil (Retry sends nothing and returns
// nil, and the code after the write returns the same values). At
// dc177ff8 each stayed before a plain Flush, "which mutate's return
// cannot" (helper U3's project E: 4, 2, 3 conflict lines a run under a
// manager).
package migrateguarddone

import (
	"context"
	"fmt"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct{ client.Client }

func plan(w *v1.Widget) int { return w.Spec.Size + 1 } // want plan:`^statusOnly\[0\]$`

// (a) The write's error wrapped, then the success return.
func (r *R) unchanged(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	n := plan(w)
	if w.Status.Size == n {
		return ctrl.Result{}, nil
	}
	w.Status.Size = n
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, fmt.Errorf("size %s: %w", w.Name, err)
	}
	return ctrl.Result{}, nil
}

// (b) The write returned with the result.
func (r *R) unchangedReturned(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	if w.Status.Size == plan(w) {
		return ctrl.Result{Requeue: true}, nil
	}
	w.Status.Size = plan(w)
	return ctrl.Result{Requeue: true}, r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// (c) An error-only function.
func (r *R) unchangedErr(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if w.Status.Size == plan(w) {
		return nil
	}
	w.Status.Size = plan(w)
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	return nil
}

// (d) The early return asks for a requeue the success path does not:
// it stays, its decision before a plain Flush, with the reason.
func (r *R) requeues(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	if w.Status.Size == plan(w) {
		return ctrl.Result{Requeue: true}, nil
	}
	w.Status.Size = plan(w)
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// (e) The values are a variable's, which may differ where the success
// return reads it: it stays.
func (r *R) variable(ctx context.Context, req ctrl.Request, res ctrl.Result) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	if w.Status.Size == plan(w) {
		return res, nil
	}
	w.Status.Size = plan(w)
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	return res, nil
}
