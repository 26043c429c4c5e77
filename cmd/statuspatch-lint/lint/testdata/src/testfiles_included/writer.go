package testfiles_included

import (
	"context"

	v1 "example.com/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func write(ctx context.Context, c client.Client, w *v1.Widget) error {
	return c.Status().Update(ctx, w) // want `handwritten status write to Widget`
}
