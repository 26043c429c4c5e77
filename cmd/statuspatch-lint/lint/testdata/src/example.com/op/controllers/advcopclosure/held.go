package advcopclosure

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// Closures held other than by a local function variable: in a slice, a
// struct, or what a function returns. Each holds the whole object when
// its literal captures it (or a holder of a part of it).

// inSlice: a slice of closures, one setting the spec.
func inSlice(ctx context.Context, c client.Client, w *v1.Widget) error {
	fs := []func(){func() { w.Spec.Size = 3 }}
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 19 in the mutate: line 17 holds w in fs, through which line 20 may set it: \-fix does not follow writes through an alias`
		w.Status.Size = w.Spec.Size
		fs[0]()
		return nil
	})
	return err
}

// ranged: a closure held by a local, put in a slice and ranged over.
func ranged(ctx context.Context, c client.Client, w *v1.Widget) error {
	f := func() { w.Spec.Size = 3 }
	fs := []func(){f}
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 31 in the mutate: line 32 holds w in g, through which line 33 may set it: \-fix does not follow writes through an alias`
		w.Status.Size = w.Spec.Size
		for _, g := range fs {
			g()
		}
		return nil
	})
	return err
}

// inStruct: a struct's field holds the closure.
func inStruct(ctx context.Context, c client.Client, w *v1.Widget) error {
	h := struct{ run func() }{run: func() { w.Spec.Size = 3 }}
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 44 in the mutate: line 42 holds w in h, through which line 45 may set it: \-fix does not follow writes through an alias`
		w.Status.Size = w.Spec.Size
		h.run()
		return nil
	})
	return err
}

func wrap(f func()) func() { return f }

// wrapped: a function returns the closure it is given.
func wrapped(ctx context.Context, c client.Client, w *v1.Widget) error {
	run := wrap(func() { w.Spec.Size = 3 })
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 57 in the mutate: line 55 holds w in run, through which line 58 may set it: \-fix does not follow writes through an alias`
		w.Status.Size = w.Spec.Size
		run()
		return nil
	})
	return err
}

// viaHolder: the closure in the slice captures a holder of the spec.
func viaHolder(ctx context.Context, c client.Client, w *v1.Widget) error {
	spec := &w.Spec
	fs := []func(){func() { spec.Size = 3 }}
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 69 in the mutate: line 67 holds w in fs, through which line 70 may set it: \-fix does not follow writes through an alias`
		w.Status.Size = w.Spec.Size
		fs[0]()
		return nil
	})
	return err
}

// notCaptured: the slice's closures touch neither the object nor a
// holder: the status statement moves.
func notCaptured(ctx context.Context, c client.Client, w *v1.Widget) error { // want notCaptured:"statusOnly\\[2\\]"
	calls := 0
	fs := []func(){func() { calls++ }}
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `status write by controllerutil\.CreateOrPatch to Widget: its mutate changes the status at line 82, `
		w.Status.Size = w.Spec.Size
		fs[0]()
		return nil
	})
	_ = calls
	return err
}
