// Package migrateexplicit: a generic helper of the package called with
// its type arguments written (h[T](...), issue 80, s105) is followed as
// the call that infers them is: kube.CalledFunc unwraps the index and
// answers the declared function, as it does a generic type's method.
package migrateexplicit

import (
	"context"

	v1 "example.com/op/api/v1"
	"example.com/op/genericutil"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct {
	client.Client
}

// markReady changes the widget's status; what it notes is of any type.
func markReady[T any](w *v1.Widget, note T) { // want markReady:`^statusOnly\[0\]$`
	_ = note
	w.Status.Ready = true
}

// pair changes the widget's status from two values of any types.
func pair[A, B any](w *v1.Widget, a A, b B) { // want pair:`^statusOnly\[0\]$`
	_, _ = a, b
	w.Status.Size++
}

// marker changes the widget's status in a method of a generic type.
type marker[T any] struct{ note T }

func (m marker[T]) mark(w *v1.Widget) { // want mark:`^statusOnly\[0\]$`
	_ = m.note
	w.Status.Ready = true
}

func (r *R) implicit(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	markReady(w, "implicit")
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func (r *R) explicit(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	markReady[string](w, "explicit")
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func (r *R) explicitList(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	pair[string, int](w, "size", 1)
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func (r *R) method(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	marker[string]{note: "method"}.mark(w)
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func (r *R) imported(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	genericutil.MarkReady(w, "implicit")
	genericutil.MarkReady[string](w, "explicit")
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// save writes the widget's status; what it notes is of any type.
func save[T any](ctx context.Context, c client.Client, w *v1.Widget, note T) error {
	_ = note
	w.Status.Ready = true
	return c.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func (r *R) saveImplicit(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	return save(ctx, r.Client, w, "implicit")
}

func (r *R) saveExplicit(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	return save[string](ctx, r.Client, w, "explicit")
}
