// Package createorpatch_audit: -audit and -ci give CreateOrPatch's status
// patch its verdict, at the call, naming the line of the status change.
package createorpatch_audit

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

func register(ctx context.Context, c client.Client, name string, id int) error {
	w := &v1.Widget{}
	w.Name = name
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `^blind: controllerutil\.CreateOrPatch of Widget: its mutate changes the status at line 18, and CreateOrPatch patches it with client\.MergeFrom: with no resourceVersion when the mutate changed only the status, else with the one its patch of the rest returned, so what the mutate decided overwrites a status written between its Get and that patch \(one written after that patch gets a 409\)`
		if w.Status.Size == 0 {
			w.Status.Size = id
		}
		return nil
	})
	return err
}

func given(ctx context.Context, c client.Client, w *v1.Widget, mutate controllerutil.MutateFn) error { // want given:"statusOnly\\[2\\]"
	_, err := controllerutil.CreateOrPatch(ctx, c, w, mutate) // want `^unresolved: controllerutil\.CreateOrPatch of Widget: its mutate \(the parameter mutate\) is not followed`
	return err
}

func spec(ctx context.Context, c client.Client, name string) error {
	w := &v1.Widget{}
	w.Name = name
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error {
		w.Spec.Size = 3
		return nil
	})
	return err
}
