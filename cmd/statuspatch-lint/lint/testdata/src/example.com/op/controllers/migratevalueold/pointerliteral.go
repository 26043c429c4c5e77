package migratevalueold

import (
	"context"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
)

// The pointer form's re-read with a deferred literal writing after it,
// and no Fetch<Kind>StatusPatcherInto: a Fetch of a patcher of its own
// would leave the literal flushing the first patcher, over an object
// order no longer points to (its write lost). The re-read stays a Get
// and the writes stay, the reason naming the literal's line.
func (r *R) pointerLiteral(ctx context.Context, req ctrl.Request) (retErr error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	defer func() {
		if retErr != nil {
			order.Status.Ready = false
			if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget.*the function literal at line 20 writes order through the patcher of its read at line 17, and a Fetch at the re-read with Get at line 32 would point order to another object.*regenerate the patchers for FetchWidgetStatusPatcherInto`
				retErr = err
			}
		}
	}()
	order.Status.Ready = true
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget.*the function literal at line 20 writes order through the patcher of its read at line 17, and a Fetch at the re-read with Get at line 32 would point order to another object.*regenerate the patchers for FetchWidgetStatusPatcherInto`
		return err
	}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	order.Status.Size = 2
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget.*the function literal at line 20 writes order through the patcher of its read at line 17, and a Fetch at the re-read with Get at line 32 would point order to another object.*regenerate the patchers for FetchWidgetStatusPatcherInto`
}
