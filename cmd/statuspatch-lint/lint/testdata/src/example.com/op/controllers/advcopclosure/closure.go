package advcopclosure

import (
	"context"
	"sync/atomic"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

func ptr[T any](v T) *T { return &v }

// before: a closure declared before the call changes the spec the status
// statement reads.
func before(ctx context.Context, c client.Client, w *v1.Widget) error {
	f := func() { w.Spec.Size = 3 }
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 19 in the mutate: line 19 reads w\.Spec, which f, called at line 20, runs the literal at line 17, sets after it`
		w.Status.Size = w.Spec.Size
		f()
		return nil
	})
	return err
}

// inside: the closure is declared in the mutate.
func inside(ctx context.Context, c client.Client, w *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 30 in the mutate: line 29 holds w\.Spec in f, through which line 31 may set it: \-fix does not follow writes through an alias`
		f := func() { w.Spec.PodName = ptr("a") }
		w.Status.Ready = w.Spec.PodName == nil
		f()
		return nil
	})
	return err
}

// setLabel: a closure with a parameter sets a label.
func setLabel(ctx context.Context, c client.Client, w *v1.Widget) error {
	set := func(v string) { w.Labels["a"] = v }
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 41 in the mutate: line 41 reads w\.Labels, which set, called at line 42, runs the literal at line 39, sets after it`
		w.Status.Ready = w.Labels["a"] == "x"
		set("b")
		return nil
	})
	return err
}

// holder: the closure writes through a holder of the spec.
func holder(ctx context.Context, c client.Client, w *v1.Widget) error {
	spec := &w.Spec
	f := func() { spec.Size = 3 }
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 53 in the mutate: line 50 holds w\.Spec in spec, through which line 51 \(f, called at line 54, runs the literal at line 51\) may set it: \-fix does not follow writes through an alias`
		w.Status.Size = w.Spec.Size
		f()
		return nil
	})
	return err
}

// status: the closure changes the status, which -fix does not see.
func status(ctx context.Context, c client.Client, w *v1.Widget) error { // want status:"statusOnly\\[2\\]"
	f := func() { w.Status.Ready = true }
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 64 in the mutate: f, called at line 65, runs the literal at line 62, which changes w\.Status: \-fix does not move a literal's body out of the mutate`
		w.Status.Size = 1
		f()
		return nil
	})
	return err
}

// method: a method value of the object's metadata.
func method(ctx context.Context, c client.Client, w *v1.Widget) error {
	m := w.SetFinalizers
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 75 in the mutate: line 73 holds w in m, through which line 76 may set it: \-fix does not follow writes through an alias`
		w.Status.Ready = len(w.Finalizers) > 0
		m(nil)
		return nil
	})
	return err
}

// methodInside: the method value is taken in the mutate.
func methodInside(ctx context.Context, c client.Client, w *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 86 in the mutate: line 85 holds w in m, through which line 87 may set it: \-fix does not follow writes through an alias`
		m := w.SetFinalizers
		w.Status.Ready = len(w.Finalizers) > 0
		m(nil)
		return nil
	})
	return err
}

func apply(f func()) { f() }

// handed: the closure is handed to a helper, which calls it.
func handed(ctx context.Context, c client.Client, w *v1.Widget) error {
	f := func() { w.Spec.Size = 3 }
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 99 in the mutate: line 99 reads w\.Spec, which f, handed on at line 100, may run the literal at line 97, sets after it`
		w.Status.Size = w.Spec.Size
		apply(f)
		return nil
	})
	return err
}

// counter: the closure sets a local the status statement reads.
func counter(ctx context.Context, c client.Client, w *v1.Widget) error { // want counter:"statusOnly\\[2\\]"
	n := 0
	bump := func() { n++ }
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 111 in the mutate: line 111 reads n, which line 109 \(bump, called at line 112, runs the literal at line 109\) sets after it`
		w.Status.Size = n
		bump()
		return nil
	})
	return err
}

// next: the moving statement calls a closure that sets a local a later
// statement reads.
func next(ctx context.Context, c client.Client, w *v1.Widget) error {
	n := 0
	inc := func() int { n++; return n }
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 124 in the mutate: line 122 \(inc, called at line 124, runs the literal at line 122\) sets n, outside the object: moved, it would be set after CreateOrPatch, and not on create`
		w.Status.Size = inc()
		w.Spec.Size = n
		return nil
	})
	return err
}

// reader: a closure that only reads the spec, called by a statement that
// stays: the status statement moves.
func reader(ctx context.Context, c client.Client, w *v1.Widget) error {
	get := func() int { return w.Spec.Size }
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `status write by controllerutil\.CreateOrPatch to Widget: its mutate changes the status at line 136, `
		w.Status.Ready = true
		w.Spec.Size = get() + 1
		return nil
	})
	return err
}

// untouched: a closure that does not touch the object: the status
// statement moves.
func untouched(ctx context.Context, c client.Client, w *v1.Widget) error { // want untouched:"statusOnly\\[2\\]"
	var names []string
	add := func(s string) { names = append(names, s) }
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `status write by controllerutil\.CreateOrPatch to Widget: its mutate changes the status at line 149, `
		w.Status.Size = w.Spec.Size
		add("x")
		return nil
	})
	_ = names
	return err
}

// incInline: the statement after the status statement increments the
// local it reads, with no closure.
func incInline(ctx context.Context, c client.Client, w *v1.Widget) error { // want incInline:"statusOnly\\[2\\]"
	n := 0
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 162 in the mutate: line 162 reads n, which line 163 sets after it`
		w.Status.Size = n
		n++
		return nil
	})
	return err
}

// insideInt: the closure declared in the mutate sets a number.
func insideInt(ctx context.Context, c client.Client, w *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 173 in the mutate: line 173 reads w\.Spec, which f, called at line 174, runs the literal at line 172, sets after it`
		f := func() { w.Spec.Size = 3 }
		w.Status.Size = w.Spec.Size
		f()
		return nil
	})
	return err
}

// chained: g holds f's literal, and outer runs g.
func chained(ctx context.Context, c client.Client, w *v1.Widget) error {
	var f func()
	f = func() { w.Spec.Size = 3 }
	g := f
	outer := func() { g() }
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 187 in the mutate: line 187 reads w\.Spec, which outer, called at line 188, runs the literal at line 183, sets after it`
		w.Status.Size = w.Spec.Size
		outer()
		return nil
	})
	return err
}

// statusHolder: the closure sets the status through a holder of it.
func statusHolder(ctx context.Context, c client.Client, w *v1.Widget) error { // want statusHolder:"statusOnly\\[2\\]"
	st := &w.Status
	f := func() { st.Ready = true }
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 199 in the mutate: line 196 holds w\.Status in st, through which line 197 \(f, called at line 200, runs the literal at line 197\) may set it: \-fix does not follow writes through an alias`
		w.Status.Size = 1
		f()
		return nil
	})
	return err
}

// movingReads: the moving statement calls a closure reading the object:
// in the Retry, it would read the object CreateOrPatch had.
func movingReads(ctx context.Context, c client.Client, w *v1.Widget) error { // want movingReads:"statusOnly\\[2\\]"
	get := func() int { return w.Spec.Size }
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 211 in the mutate: get, called at line 211, runs the literal at line 209, which uses w: moved into the Retry with the status statement at line 211, it would reach the object CreateOrPatch had, not the one the Retry holds`
		w.Status.Size = get()
		return nil
	})
	return err
}

// pure: the moving statement calls a closure that touches neither the
// object nor a variable it sets: it moves.
func pure(ctx context.Context, c client.Client, w *v1.Widget) error { // want pure:"statusOnly\\[2\\]"
	big := func(n int) bool { return n > 2 }
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `status write by controllerutil\.CreateOrPatch to Widget: its mutate changes the status at line 222, `
		w.Status.Ready = big(w.Spec.Size)
		return nil
	})
	return err
}

var ids atomic.Int64

// effect: the moving statement calls a closure whose body has a side
// effect: in the Retry it would run on each attempt (ids.Add called
// directly there is made once).
func effect(ctx context.Context, c client.Client, w *v1.Widget) error { // want effect:"statusOnly\\[2\\]"
	next := func() int { return int(ids.Add(1)) }
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 236 in the mutate: next, called at line 236, runs the literal at line 234, which calls ids\.Add at line 234 \(Add is of sync/atomic, which changes its receiver on each call\): moved into the Retry, it would run again on each attempt, after CreateOrPatch`
		w.Status.Size = next()
		return nil
	})
	return err
}
