package advcopclosure

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// received: the moving statement runs a closure that receives from a
// channel: in the Retry each attempt would receive again, after
// CreateOrPatch.
func received(ctx context.Context, c client.Client, w *v1.Widget, ch chan int) error { // want received:"statusOnly\\[2\\]"
	recv := func() int { return <-ch }
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 17 in the mutate: recv, called at line 17, runs the literal at line 15, in which it receives from ch at line 15: Retry's function may run more than once`
		w.Status.Size = recv()
		return nil
	})
	return err
}
