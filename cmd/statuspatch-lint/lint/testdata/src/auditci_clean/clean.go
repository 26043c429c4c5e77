// Package auditci_clean: every status write is optimistic or allowed, so
// -ci reports nothing and the command exits 0.
package auditci_clean

import (
	"context"

	v1 "example.com/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func writes(ctx context.Context, c client.Client, w *v1.Widget) {
	_ = c.Status().Patch(ctx, w, client.MergeFromWithOptions(w, client.MergeFromWithOptimisticLock{}))
	_ = c.Status().Update(ctx, w)
	//statuspatch:allow the only writer of this status
	_ = c.Status().Patch(ctx, w, client.MergeFrom(w))
}
