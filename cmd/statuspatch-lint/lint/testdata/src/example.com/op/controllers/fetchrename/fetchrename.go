// Package fetchrename: re-reads after a moved write whose error variable,
// the if's own, cannot become the block's: the branch, or the code after
// it, still reads an outer err. Resize is kubebuilder's deploy-image
// Reconcile (project-v4-with-plugins): its status message reads the
// Deployment Update's err after the re-read. Taken already holds the
// name fetchErr; Twice re-reads twice in one block and returns the outer
// err at the end. Each re-read becomes the Fetch of the one patcher, its
// error renamed. InCall's branch gives the if's err to a write through
// the client, whose own edit holds that use: its re-read stays a Get,
// named.
package fetchrename

import (
	"context"
	"fmt"

	v1 "example.com/op/api/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if len(w.Status.Conditions) == 0 {
		w.Status.Ready = false
		if err = r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return ctrl.Result{}, err
		}
		if err := r.Get(ctx, req.NamespacedName, w); err != nil {
			return ctrl.Result{}, err
		}
	}
	other := &v1.Widget{}
	if err = r.Update(ctx, other); err != nil {
		if err := r.Get(ctx, req.NamespacedName, w); err != nil {
			return ctrl.Result{}, fmt.Errorf("re-read %s: %w", req.Name, err)
		}
		w.Status.Ready = false
		w.SetCondition(metav1.Condition{Type: "Available", Status: "False", Reason: fmt.Sprintf("Resizing: %s", err)})
		if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, err
	}
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

type TakenReconciler struct {
	client.Client
}

func (r *TakenReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	err := r.Get(ctx, req.NamespacedName, w)
	if err != nil {
		return ctrl.Result{}, err
	}
	fetchErr := fmt.Errorf("unused: %s", w.Name)
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	if err = r.Update(ctx, &v1.Widget{}); err != nil {
		if err := r.Get(ctx, req.NamespacedName, w); err != nil {
			return ctrl.Result{}, err
		}
		w.Status.Size = 2
		if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, fmt.Errorf("%w, %w", err, fetchErr)
	}
	return ctrl.Result{}, nil
}

type TwiceReconciler struct {
	client.Client
}

func (r *TwiceReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	err := r.Get(ctx, req.NamespacedName, w)
	if client.IgnoreNotFound(err) != nil {
		return ctrl.Result{}, err
	}
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	w.Status.Size = 2
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	w.Status.Size = 3
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, err
}

type InCallReconciler struct {
	client.Client
}

func (r *InCallReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	err := r.Get(ctx, req.NamespacedName, w)
	if err != nil {
		return ctrl.Result{}, err
	}
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, r.Status().Update(ctx, failed(w, err)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\) \(not moved to the patcher: the object failed\(w, err\) is not a variable\)$`
	}
	w.Status.Size = 2
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\) \(the re-read of w at line 134 stays a cached Get \(its error variable err would shadow, or be read before it is set again, and cannot be renamed: the call r.Status\(\).Update at line 135 takes it\): make it FetchWidgetStatusPatcher by hand, which reads again through the API reader when the cache is behind this process's last write\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, err
}

func failed(w *v1.Widget, err error) *v1.Widget {
	w.Status.Ready = err == nil
	return w
}
