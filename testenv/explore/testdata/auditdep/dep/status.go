package dep

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// PatchStatus sends obj's status as a merge patch from base.
func PatchStatus(ctx context.Context, c client.Client, obj, base client.Object) error {
	return c.Status().Patch(ctx, obj, client.MergeFrom(base))
}
