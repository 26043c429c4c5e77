package migratelifevalue

import (
	"context"
	"fmt"

	v1 "example.com/op/api/v1"
	"k8s.io/client-go/util/retry"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// migrateloop's conflict loop on a value declared before it and used
// after it: the loop becomes the patcher's Fetch and Retry, the Fetch
// reading into the value (FetchWidgetStatusPatcherInto), which Retry
// re-reads in place: the value is the patcher's object, no copy.
func (r *OrderReconciler) loop(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var order v1.Widget
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
			return err
		}
		if order.Status.Size != 0 {
			return nil
		}
		order.Status.Size = len(order.Name)
		return r.Status().Update(ctx, &order) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
	})
	if err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !order.Status.Ready {
		fmt.Println(order.Name)
	}
	return ctrl.Result{}, nil
}
