package testfiles_excluded_test

import (
	"context"

	v1 "example.com/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func seedExternal(ctx context.Context, c client.Client, w *v1.Widget) {
	_ = c.Status().Patch(ctx, w, client.MergeFrom(w))
}
