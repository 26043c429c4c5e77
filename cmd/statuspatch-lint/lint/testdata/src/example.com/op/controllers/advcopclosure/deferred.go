package advcopclosure

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// deferredLit: a deferred literal sets the spec as the mutate returns,
// after the status statement that reads it.
func deferredLit(ctx context.Context, c client.Client, w *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 16 in the mutate: line 16 reads w\.Spec, which line 15, deferring a call to the mutate's return, sets after it`
		defer func() { w.Spec.Size = 3 }()
		w.Status.Size = w.Spec.Size
		return nil
	})
	return err
}

// deferredLocal: the deferred call is of a closure held in a local.
func deferredLocal(ctx context.Context, c client.Client, w *v1.Widget) error {
	f := func() { w.Spec.Size = 3 }
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 27 in the mutate: line 27 reads w\.Spec, which f, deferred at line 26, runs the literal at line 24, sets after it`
		defer f()
		w.Status.Size = w.Spec.Size
		return nil
	})
	return err
}
