package advcopclosure

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// statusAlias: a statement that stays reads the status through a holder
// of it after the status statement set it.
func statusAlias(ctx context.Context, c client.Client, w *v1.Widget) error {
	st := &w.Status
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 16 in the mutate: line 14 holds w\.Status in st, which line 17, a statement staying in the mutate, reads after a status statement: it would read the status CreateOrPatch read, not the one decided after it`
		w.Status.Size = 3
		w.Spec.Size = st.Size
		return nil
	})
	return err
}

// objectAlias: the same through another name of the object.
func objectAlias(ctx context.Context, c client.Client, w *v1.Widget) error {
	o := w
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 27 in the mutate: line 25 holds w in o, which line 28, a statement staying in the mutate, reads after a status statement: it would read the status CreateOrPatch read, not the one decided after it`
		w.Status.Size = 3
		w.Spec.Size = o.Status.Size
		return nil
	})
	return err
}

// objectSpec: the statement that stays reads the spec through another
// name of the object: the status statement moves.
func objectSpec(ctx context.Context, c client.Client, w *v1.Widget) error {
	o := w
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `status write by controllerutil\.CreateOrPatch to Widget: its mutate changes the status at line 39, `
		w.Status.Size = 3
		w.Spec.Size = o.Spec.Size + 1
		return nil
	})
	return err
}
