// Package wiring imports the separately generated patchers package, so
// its facts reach crosspkg although crosspkg does not import it.
package wiring

import (
	v2 "example.com/api/v2"
	"example.com/api/v2/statuspatch"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func New(c client.Client, g *v2.Gizmo) *statuspatch.GizmoStatusPatcher {
	return statuspatch.NewGizmoStatusPatcher(c, g)
}
