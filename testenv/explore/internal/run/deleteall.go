package run

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/reset"
)

// deleteAllOf serves DeleteAllOf as what the server does with it
// (reset.DeleteAllOf): each deletion is recorded as a delete of that
// object (its version, its events, the per-write invariants).
func (r *Run) deleteAllOf(ctx context.Context, c client.WithWatch, obj client.Object, opts []client.DeleteAllOfOption) error {
	if r.Held.holdsNext() {
		return fmt.Errorf("explore: DeleteAllOf as the old leader's write in flight is not modelled: %w", errCrashed)
	}
	if r.stopped() {
		return errCrashed
	}
	return reset.DeleteAllOf(ctx, c, r.server.Scheme(), obj, opts, func(ctx context.Context, it *unstructured.Unstructured, o *client.DeleteOptions) error {
		return r.write(ctx, "delete", it, nil, func(ctx context.Context, obj client.Object, _ client.Patch) error {
			return c.Delete(ctx, obj, o)
		})
	})
}
