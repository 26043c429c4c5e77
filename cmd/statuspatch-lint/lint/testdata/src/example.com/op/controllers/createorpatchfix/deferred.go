package createorpatchfix

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// Issue 80 (s111): a status change in a function literal of the mutate,
// deferred or called there, was not seen: the call got no finding and
// its blind status write went unreported. Now the mutate changes the
// status at that line; -fix keeps it (a deferred literal runs as the
// mutate returns, and its body is not moved out of it).

// deferredStatus: the literal is deferred.
func deferredStatus(ctx context.Context, c client.Client, w *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 21 in the mutate: line 20 defers a call using w, or runs one by go, which runs as the mutate returns or later: -fix does not move it out of the mutate`
		defer func() {
			w.Status.Ready = true
		}()
		w.Labels = map[string]string{"managed": "true"}
		return nil
	})
	return err
}

// calledStatus: the literal is called where it is.
func calledStatus(ctx context.Context, c client.Client, w *v1.Widget) error { // want calledStatus:"statusOnly\\[2\\]"
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 33 in the mutate: line 32 changes the status in a function literal`
		func() {
			w.Status.Ready = true
		}()
		return nil
	})
	return err
}
