package explore

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// deleteAllOf serves DeleteAllOf as what the server does with it: it
// deletes every object of obj's kind that matches the options' list
// options, as it is now. Each deletion is recorded as a delete of that
// object (its version, its events, the per-write invariants), sent with
// the call's delete options; an object already gone in between is skipped,
// as the server's collection delete skips it.
func (r *run) deleteAllOf(ctx context.Context, c client.WithWatch, obj client.Object, opts []client.DeleteAllOfOption) error {
	if r.held.holdsNext() {
		return fmt.Errorf("explore: DeleteAllOf as the old leader's write in flight is not modelled: %w", errCrashed)
	}
	if r.stopped() {
		return errCrashed
	}
	o := (&client.DeleteAllOfOptions{}).ApplyOptions(opts)
	gvk, err := apiutil.GVKForObject(obj, r.server.Scheme())
	if err != nil {
		return fmt.Errorf("explore: DeleteAllOf %T: %w", obj, err)
	}
	list := &unstructured.UnstructuredList{}
	list.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
	if err := c.List(ctx, list, &o.ListOptions); err != nil {
		return fmt.Errorf("explore: DeleteAllOf %s: listing what it deletes: %w", gvk.Kind, err)
	}
	for i := range list.Items {
		it := &list.Items[i]
		err := r.write(ctx, "delete", it, nil, func(ctx context.Context, obj client.Object, _ client.Patch) error {
			return c.Delete(ctx, obj, &o.DeleteOptions)
		})
		if client.IgnoreNotFound(err) != nil {
			return fmt.Errorf("explore: DeleteAllOf %s: %w", gvk.Kind, err)
		}
	}
	return nil
}
