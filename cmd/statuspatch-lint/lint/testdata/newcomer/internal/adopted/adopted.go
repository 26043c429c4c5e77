// Package adopted is the same controller after it imports the patchers:
// nothing to report.
package adopted

import (
	"context"

	apiv1 "example.com/newcomer/api/v1"
	"example.com/newcomer/internal/patchers"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func reconcile(ctx context.Context, c client.Client, w *apiv1.Website) error {
	p := patchers.NewWebsiteStatusPatcher(c, w)
	p.Object().Status.URL = "https://example.com"
	return nil
}
