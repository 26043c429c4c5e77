package createorpatchfix

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// Issue 80 (s111): a write through a name sharing memory with a part of
// the object was not seen, and the status statement reading that part
// moved after it: it read the new value, not the one the mutate had
// when it ran. Now a value of the mutate holding a part of the object
// (its address, a map, slice or pointer read from it) that the mutate
// writes through or hands on keeps the write, unless no status
// statement before that write reads the part.

// addrSpec: the spec's address, written through.
func addrSpec(ctx context.Context, c client.Client, w *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 23 in the mutate: line 22 holds w\.Spec in spec, through which line 24 may set it: -fix does not follow writes through an alias`
		spec := &w.Spec
		w.Status.Size = w.Spec.Size
		spec.Size = 3
		return nil
	})
	return err
}

// labelsMap: the labels map, written through.
func labelsMap(ctx context.Context, c client.Client, w *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 34 in the mutate: line 33 holds w\.Labels in l, through which line 35 may set it`
		l := w.Labels
		w.Status.Ready = w.Labels["a"] == "x"
		l["a"] = "b"
		return nil
	})
	return err
}

// specSlice: a slice of the spec, written through.
func specSlice(ctx context.Context, c client.Client, w *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 45 in the mutate: line 44 holds w\.Spec in roles, through which line 46 may set it`
		roles := w.Spec.Roles
		w.Status.Ready = len(w.Spec.Roles) > 0 && w.Spec.Roles[0].Name == "a"
		roles[0].Name = "b"
		return nil
	})
	return err
}

// pointerField: a pointer field of the spec, written through.
func pointerField(ctx context.Context, c client.Client, w *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 56 in the mutate: line 55 holds w\.Spec in p, through which line 57 may set it`
		p := w.Spec.PodName
		w.Status.Ready = w.Spec.PodName != nil && *w.Spec.PodName == "a"
		*p = "b"
		return nil
	})
	return err
}

// before: the alias is declared before the literal.
func before(ctx context.Context, c client.Client, w *v1.Widget) error {
	spec := &w.Spec
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 67 in the mutate: line 65 holds w\.Spec in spec, through which line 68 may set it`
		w.Status.Size = w.Spec.Size
		spec.Size = 3
		return nil
	})
	return err
}

func grow(s *v1.WidgetSpec) { s.Size++ }

// handed: the alias is handed to a function, which may set through it.
func handed(ctx context.Context, c client.Client, w *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 80 in the mutate: line 79 holds w\.Spec in spec, through which line 81 may set it`
		spec := &w.Spec
		w.Status.Size = w.Spec.Size
		grow(spec)
		return nil
	})
	return err
}

// notRead: the labels are written through an alias, but no status
// statement reads them: the status statement moves.
func notRead(ctx context.Context, c client.Client, w *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `status write by controllerutil\.CreateOrPatch to Widget: its mutate changes the status at line 92, `
		l := w.Labels
		w.Status.Ready = true
		l["a"] = "b"
		return nil
	})
	return err
}

// scalarCopy: a copy of a number shares nothing: the status statement
// moves, reading the copy taken before the call.
func scalarCopy(ctx context.Context, c client.Client, w *v1.Widget) error {
	n := w.Spec.Size
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `status write by controllerutil\.CreateOrPatch to Widget: its mutate changes the status at line 104, `
		w.Status.Size = n
		w.Spec.Size = n + 1
		return nil
	})
	return err
}

func dropLabels(l map[string]string) { delete(l, "a") }

// directHanded: the labels map itself is handed to a function and given
// to delete, each of which may set it.
func directHanded(ctx context.Context, c client.Client, w *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 117 in the mutate: line 117 reads w\.Labels, which line 118 sets after it`
		w.Status.Ready = w.Labels["a"] == "x"
		dropLabels(w.Labels)
		return nil
	})
	return err
}

func directDelete(ctx context.Context, c client.Client, w *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 126 in the mutate: line 126 reads w\.Labels, which line 127 sets after it`
		w.Status.Ready = w.Labels["a"] == "x"
		delete(w.Labels, "a")
		return nil
	})
	return err
}
