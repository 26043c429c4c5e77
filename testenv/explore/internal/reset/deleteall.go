package reset

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// DeleteAllOf serves DeleteAllOf as what the server does with it: it
// lists through c every object of obj's kind (scheme names it) that
// matches the options' list options, as it is now, and deletes each
// through del, with the call's delete options; an object already gone in
// between is skipped, as the server's collection delete skips it. The
// explorer's del records each deletion as a delete of that object (its
// version, its events, the per-write invariants).
func DeleteAllOf(ctx context.Context, c client.WithWatch, scheme *runtime.Scheme, obj client.Object, opts []client.DeleteAllOfOption,
	del func(ctx context.Context, it *unstructured.Unstructured, o *client.DeleteOptions) error) error {
	o := (&client.DeleteAllOfOptions{}).ApplyOptions(opts)
	gvk, err := apiutil.GVKForObject(obj, scheme)
	if err != nil {
		return fmt.Errorf("explore: DeleteAllOf %T: %w", obj, err)
	}
	list := &unstructured.UnstructuredList{}
	list.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
	if err := c.List(ctx, list, &o.ListOptions); err != nil {
		return fmt.Errorf("explore: DeleteAllOf %s: listing what it deletes: %w", gvk.Kind, err)
	}
	for i := range list.Items {
		if err := del(ctx, &list.Items[i], &o.DeleteOptions); client.IgnoreNotFound(err) != nil {
			return fmt.Errorf("explore: DeleteAllOf %s: %w", gvk.Kind, err)
		}
	}
	return nil
}
