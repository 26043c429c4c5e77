package advmaporder

import (
	"context"
	"errors"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Kept: the deferred write's context is taken from two names its literal
// declares. The reason names the first (identsOf was a map).
func (r *OrderReconciler) twoContexts(ctx context.Context, key client.ObjectKey) (retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	defer func() {
		first, second := ctx, ctx
		w.Status.Ready = retErr == nil
		retErr = errors.Join(retErr, r.Status().Update(either(first, second), w)) // want `the write's context first is declared in the deferred literal, not at the decision`
	}()
	if w.Status.Size == 0 {
		w.Status.Size = len(w.Spec.Roles)
	}
	return nil
}

// either is one of two contexts.
func either(a, b context.Context) context.Context {
	if a != nil {
		return a
	}
	return b
}
