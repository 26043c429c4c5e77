package createorpatchfix

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// Issue 80 (a): the mutate is a local given a function literal; its
// statements move when the call is its only use.

// named: the literal is declared before the call, used only there.
func named(ctx context.Context, c client.Client, w *v1.Widget) error {
	mutate := func() error {
		w.Labels = map[string]string{"managed": "true"}
		w.Status.Ready = true
		return nil
	}
	_, err := controllerutil.CreateOrPatch(ctx, c, w, mutate) // want `status write by controllerutil\.CreateOrPatch to Widget: its mutate changes the status at line 18, `
	return err
}

// called2: the literal is also called after the call.
func called2(ctx context.Context, c client.Client, w *v1.Widget) error { // want called2:"statusOnly\\[2\\]"
	mutate := func() error {
		w.Status.Ready = true
		return nil
	}
	_, err := controllerutil.CreateOrPatch(ctx, c, w, mutate) // want `keeps the status change at line 28 in the mutate: line 35 uses mutate besides the call: its literal's statements are not the call's alone`
	if err != nil {
		return err
	}
	return mutate()
}

// reassigned: the local is given another literal on a path.
func reassigned(ctx context.Context, c client.Client, w *v1.Widget, spec bool) error {
	mutate := func() error {
		w.Status.Ready = true
		return nil
	}
	if spec {
		mutate = func() error {
			w.Spec.Size = 2
			return nil
		}
	}
	_, err := controllerutil.CreateOrPatch(ctx, c, w, mutate) // want `keeps the status change at line 41 in the mutate: line 45 uses mutate besides the call`
	return err
}

// given: the mutate is a parameter.
func given(ctx context.Context, c client.Client, w *v1.Widget, mutate func() error) error { // want given:"statusOnly\\[2\\]"
	_, err := controllerutil.CreateOrPatch(ctx, c, w, mutate) // want `its mutate \(the parameter mutate\) is not followed`
	return err
}

type widgetReconciler struct{ size int }

// mutate returns the mutate of w: its labels and its readiness.
func (r *widgetReconciler) mutate(w *v1.Widget) controllerutil.MutateFn {
	return func() error {
		w.Labels = map[string]string{"managed": "true"}
		w.Spec.Size = r.size
		w.Status.Ready = true
		return nil
	}
}

// returned2: the mutate is what a method of the package returns; the
// finding names its line, -fix keeps it (its statements are the
// method's, and any caller's).
func (r *widgetReconciler) returned2(ctx context.Context, c client.Client, w *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, r.mutate(w)) // want `its mutate changes the status at line 67 \(in mutate\), .* keeps the status change at line 67 \(in mutate\) in the mutate: the mutate r\.mutate\(w\) is not a function literal whose statements -fix can move`
	return err
}
