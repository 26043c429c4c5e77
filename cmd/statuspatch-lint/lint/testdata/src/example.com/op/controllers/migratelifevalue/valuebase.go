package migratelifevalue

import (
	"context"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The base a whole copy of the value (base := order), patched from its
// address: the copy shares order's slices and maps, so the patch may leave
// out a change made in place through them, which the patcher would send.
// It stays, saying so (at cc13c6a: "the base &base is not a variable"),
// with the lock of a kept merge patch.
func (r *OrderReconciler) valueBase(ctx context.Context, req ctrl.Request) error {
	var order v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return err
	}
	base := order
	order.Status.Ready = true
	return r.Status().Patch(ctx, &order, client.MergeFrom(&base)) // want `\(not moved to the patcher: the base &base is the address of base, a copy of the value order made at line 21: it shares order's slices and maps, so a change made in place through them is in the base too and this patch leaves it out, where the patcher, whose base is a DeepCopy, would send it; take the base with order\.DeepCopy\(\) for -fix to move the write\)$`
}
