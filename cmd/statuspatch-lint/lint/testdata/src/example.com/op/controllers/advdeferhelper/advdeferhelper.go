// Package advdeferhelper: a deferred helper call registered before the
// tutorial's re-Get. At ec1c388 the helper takes the patcher its caller
// makes after the Get (defer r.finish(ctx, wPatcher)), and the re-Get
// stays a Get: the deferred call holds the patcher of the first read,
// whose base the re-read no longer matches when another writer wrote
// between the first write and the re-read, and its Flush conflicts
// where the handwritten Update, after the re-read, was stored. The
// arguments of a deferred call are taken when it is registered, so the
// re-Get made the patcher's Fetch (as advdefer's literal does) would not
// reach it either: the write should stay, naming the re-read, or the
// helper take the patcher through something the Fetch renews.
package advdeferhelper

import (
	"context"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct {
	client.Client
}

func (r *R) finish(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = w.Spec.Size
	return r.Status().Update(ctx, w) // want `not moved to the patcher: .*re-read`
}

func (r *R) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer r.finish(ctx, w)
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `not moved to the patcher: .*re-read`
		return ctrl.Result{}, err
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}
