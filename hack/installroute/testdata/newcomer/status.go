// Package status holds the reconciler's status helpers, exported for the
// controllers of the module.
package status

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "example.com/widgets/api/v1"
)

// MarkFailed records that the widget failed.
func MarkFailed(ctx context.Context, c client.Client, w *widgetsv1.Widget, reason string) error {
	w.Status.Phase = "Failed"
	return c.Status().Update(ctx, w)
}
