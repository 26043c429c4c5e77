// Package advmaporder: reasons that name one of several candidates, each
// found by ranging over a map, name the same one on every run: the first
// in source order.
package advmaporder

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Provisioner struct {
	client client.Client
}

// Kept: the status changes before two continues, which write nothing.
// The reason names the first (exitChanged ranged over a map of exits).
func (p *Provisioner) twoExits(ctx context.Context, byKey map[string]*v1.Widget) {
	for _, w := range byKey {
		stored := w.DeepCopy()
		w.Status.Size++
		if w.Status.Ready {
			continue
		}
		if w.Name == "" {
			continue
		}
		if w.Namespace == "" {
			continue
		}
		w.Status.Ready = true
		_ = p.client.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `w may be changed before the continue at line 24, which wrote nothing`
	}
}
