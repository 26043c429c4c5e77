package generated

import (
	"context"

	v1 "example.com/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func handwritten(ctx context.Context, c client.Client, w *v1.Widget) error {
	return c.Status().Update(ctx, w) // want `handwritten status write to Widget`
}
