// Package apply: subpackages of the patcher runtime are excluded too.
package apply

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

func Write(ctx context.Context, c client.Client, obj client.Object) error {
	return c.Status().Patch(ctx, obj, client.MergeFrom(obj))
}
