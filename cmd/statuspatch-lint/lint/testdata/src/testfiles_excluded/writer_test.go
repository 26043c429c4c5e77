package testfiles_excluded

import (
	"context"

	v1 "example.com/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Without -tests, _test.go files are not checked.
func seed(ctx context.Context, c client.Client, w *v1.Widget) {
	_ = c.Status().Update(ctx, w)
	//statuspatch:allow
	_ = c.Status().Update(ctx, w)
}
