// Package fixalias: the fix qualifies the lock as the file imports the
// client package.
package fixalias

import (
	"context"

	v1 "example.com/api/v1"
	crclient "sigs.k8s.io/controller-runtime/pkg/client"
)

func write(ctx context.Context, c crclient.Client, w *v1.Widget) error {
	return c.Status().Patch(ctx, w, crclient.MergeFrom(w.DeepCopyObject().(*v1.Widget))) // want `^blind: `
}
