// Package advdefer: a deferred write registered before the tutorial's
// re-Get. The deferred write runs after the re-read: the re-Get becomes
// the patcher's Fetch, which the deferred literal's Flush then uses. At
// fc01b3f the re-Get stayed a Get: it brought another writer's status
// into the object after the patcher's base, and the deferred Flush
// returned a conflict where the handwritten Update, after its re-read,
// was stored.
package advdefer

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
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		w.Status.Size = w.Spec.Size
		_ = r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	}()
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}
