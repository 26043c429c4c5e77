// Package crosspkg: the suggested patcher is found through facts of
// another package of the program.
package crosspkg

import (
	"context"

	"crosspkg/wiring"
	v1 "example.com/api/v1"
	v2 "example.com/api/v2"
	"example.com/other"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func write(ctx context.Context, c client.Client, g *v2.Gizmo, w *v1.Widget, o *other.Widget) error {
	_ = wiring.New(c, g)
	_ = c.Status().Update(ctx, g) // want `handwritten status write to Gizmo: use GizmoStatusPatcher \(example.com/api/v2/statuspatch\)`
	_ = c.Status().Update(ctx, w) // want `handwritten status write to Widget: use WidgetStatusPatcher \(example.com/api/v1\)`
	// A different Widget: v1's patcher does not apply.
	return c.Status().Update(ctx, o) // want `handwritten status write to Widget: generate a WidgetStatusPatcher with statuspatch-gen`
}
