// Package migratevalueold: kubebuilder's tutorial re-read of a value
// (issue 80) when the generated package is older than
// Fetch<Kind>StatusPatcherInto (a user who did not regenerate; -patchers
// without :into): the re-read is a Fetch of its own patcher, the value
// takes its object and the patcher is made again over the value.
package migratevalueold

import (
	"context"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct {
	client.Client
}

func (r *R) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var order v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	order.Status.Ready = true
	if err := r.Status().Update(ctx, &order); err != nil { // want `^handwritten status write to Widget`
		return ctrl.Result{}, err
	}
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return ctrl.Result{}, err
	}
	order.Status.Size = 2
	return ctrl.Result{}, r.Status().Update(ctx, &order) // want `^handwritten status write to Widget`
}
