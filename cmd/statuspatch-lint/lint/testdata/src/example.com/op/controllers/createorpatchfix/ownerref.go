package createorpatchfix

import (
	"context"
	"fmt"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// Issue 80 (s111): a return of an error before the status statements
// kept the write ("returns before it"), though CreateOrPatch then
// returns that error and the Retry's guard (err == nil) skips the
// statements, as the mutate did: the same decision. A return of what
// may be nil stays kept (register.go's returned).

// ownerErr: SetControllerReference's error, returned as it is.
func ownerErr(ctx context.Context, c client.Client, owner, w *v1.Widget, scheme *runtime.Scheme) error { // want ownerErr:"statusOnly\\[2 3\\]"
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `status write by controllerutil\.CreateOrPatch to Widget: its mutate changes the status at line 25, `
		if err := controllerutil.SetControllerReference(owner, w, scheme); err != nil {
			return err
		}
		w.Status.Ready = true
		return nil
	})
	return err
}

// ownerWrapped: the error wrapped, never nil.
func ownerWrapped(ctx context.Context, c client.Client, owner, w *v1.Widget, scheme *runtime.Scheme) error { // want ownerWrapped:"statusOnly\\[2 3\\]"
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `status write by controllerutil\.CreateOrPatch to Widget: its mutate changes the status at line 37, `
		if err := controllerutil.SetControllerReference(owner, w, scheme); err != nil {
			return fmt.Errorf("owner of %s: %w", w.Name, err)
		}
		w.Status.Ready = true
		return nil
	})
	return err
}

// ownerReset: err is set again before its return, which may then be nil.
func ownerReset(ctx context.Context, c client.Client, owner, w *v1.Widget, scheme *runtime.Scheme) error { // want ownerReset:"statusOnly\\[2 3\\]"
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 50 in the mutate: line 48 returns before it, so it is not made on every run`
		if err := controllerutil.SetControllerReference(owner, w, scheme); err != nil {
			err = nil
			return err
		}
		w.Status.Ready = true
		return nil
	})
	return err
}
