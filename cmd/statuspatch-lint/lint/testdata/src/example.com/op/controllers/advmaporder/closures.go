package advmaporder

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// Kept: the mutate calls h, which may run either literal: h is given g,
// which is given readStatus, and then setStatus. The reason names the
// first literal in source order (funcLits' fixed point ranged over a
// map, and the order of h's literals followed it).
func twoLiterals(ctx context.Context, c client.Client, w *v1.Widget) error { // want twoLiterals:`^statusOnly\[2\]$`
	readStatus := func() { _ = w.Status.Ready }
	setStatus := func() { w.Status.Size++ }
	var g func()
	g = readStatus
	h := g
	h = setStatus
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `the literal at line 16`
		h()
		w.Status.Ready = true
		return nil
	})
	return err
}
