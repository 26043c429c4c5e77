// Package migratekept: kubebuilder's re-fetch after a status write in
// shapes -fix cannot make a Fetch of the patcher. The writes move, the
// re-read stays a Get, and the finding says so and why: through the
// manager's cache that Get can return the object as it was before this
// process's own write.
package migratekept

import (
	"context"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type WidgetReconciler struct {
	client.Client
	misses int
}

// GoesOn: the re-fetch's error branch does not return.
func (r *WidgetReconciler) GoesOn(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	widget.Status.Ready = false
	if err := r.Status().Update(ctx, widget); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		r.misses++
	}
	widget.Status.Ready = true
	return ctrl.Result{}, r.Status().Update(ctx, widget) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\) \(the re-read of widget at line 31 stays a cached Get \(its error branch does not end in a return\): make it FetchWidgetStatusPatcher by hand, which reads again through the API reader when the cache is behind this process's last write\)$`
}

// Ignored: the re-fetch's error is dropped.
func (r *WidgetReconciler) Ignored(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	widget.Status.Ready = false
	if err := r.Status().Update(ctx, widget); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	_ = r.Get(ctx, req.NamespacedName, widget)
	widget.Status.Ready = true
	return ctrl.Result{}, r.Status().Update(ctx, widget) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\) \(the re-read of widget at line 48 stays a cached Get \(its error is ignored\): make it FetchWidgetStatusPatcher by hand, which reads again through the API reader when the cache is behind this process's last write\)$`
}
