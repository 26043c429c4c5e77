// Package overlapbranch: a re-Get that stays a Get (its error variable
// is the outer err the branch still reads) makes a patcher of its own
// inside the text of the patcher of the function's last write. Resize is
// kubebuilder's deploy-image Reconcile (project-v4-with-plugins): the
// branch returns after its write, so the first patcher is never flushed
// after the second's store and both move. Falls goes on to the last
// write, and Loop's next turn writes through the first patcher again:
// each would flush a base older than the other's store, so they stay.
package overlapbranch

import (
	"context"
	"fmt"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type ResizeReconciler struct {
	client.Client
}

func (r *ResizeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	err := r.Get(ctx, req.NamespacedName, w)
	if err != nil {
		return ctrl.Result{}, err
	}
	other := &v1.Widget{}
	if err = r.Update(ctx, other); err != nil {
		if err := r.Get(ctx, req.NamespacedName, w); err != nil {
			return ctrl.Result{}, err
		}
		w.Status.Ready = false
		w.Status.Conditions = nil
		if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, fmt.Errorf("resize: %w", err)
	}
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

type FallsReconciler struct {
	client.Client
}

func (r *FallsReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	err := r.Get(ctx, req.NamespacedName, w)
	if err != nil {
		return ctrl.Result{}, err
	}
	other := &v1.Widget{}
	if err = r.Update(ctx, other); err != nil {
		if err := r.Get(ctx, req.NamespacedName, w); err != nil {
			return ctrl.Result{}, err
		}
		w.Status.Ready = false
		if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\) \(not moved to the patcher: the status writes of w at line 65 and line 71 would each have a patcher of their own, alive at once: a Flush of one would conflict with the other's write\)$`
			return ctrl.Result{}, err
		}
		w.Status.Size = len(err.Error())
	}
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\) \(not moved to the patcher: the status writes of w at line 65 and line 71 would each have a patcher of their own, alive at once: a Flush of one would conflict with the other's write\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

type LoopReconciler struct {
	client.Client
}

func (r *LoopReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	err := r.Get(ctx, req.NamespacedName, w)
	if err != nil {
		return ctrl.Result{}, err
	}
	for i := range 2 {
		w.Status.Size = i
		if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\) \(not moved to the patcher: the status writes of w at line 89 and line 97 would each have a patcher of their own, alive at once: a Flush of one would conflict with the other's write\)$`
			return ctrl.Result{}, err
		}
		if err = r.Update(ctx, &v1.Widget{}); err != nil {
			if err := r.Get(ctx, req.NamespacedName, w); err != nil {
				return ctrl.Result{}, err
			}
			w.Status.Ready = false
			if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\) \(not moved to the patcher: the status writes of w at line 89 and line 97 would each have a patcher of their own, alive at once: a Flush of one would conflict with the other's write\)$`
				return ctrl.Result{}, err
			}
			_ = err.Error()
			continue
		}
	}
	return ctrl.Result{}, nil
}
