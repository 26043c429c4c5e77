package migratelifevalue

import (
	"context"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
)

// A pointer object given, before its re-read, to a function that keeps
// it: a Fetch would point w to another object, and what was kept would
// go on changing the one first read (the Get filled the object the code
// holds). The re-read stays a Get, the write after it made a patcher of
// its own after that Get (advs117's funcval2.go: a goroutine, &o.Status).
func (r *OrderReconciler) keptByGoroutine(ctx context.Context, req ctrl.Request, done chan struct{}) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	bg := func(o *v1.Widget) {
		go func() {
			<-done
			o.Status.Ready = true
			close(done)
		}()
	}
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	bg(w)
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	done <- struct{}{}
	<-done
	w.Status.Size = 2
	return r.Status().Update(ctx, w) // want `w is given to bg at line 33, where o is captured at line 25 by the function literal at line 23, which may run after the call: after the re-read it would change o as first read, and a Fetch would point w to another object \(FetchWidgetStatusPatcherInto reads into the object itself\)`
}

// The address of a field of the status, kept in a local of the caller.
func (r *OrderReconciler) keptAddress(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	st := &w.Status
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	st.Ready = true
	return r.Status().Update(ctx, w) // want `the address of w.Status is taken at line 49 and kept, which would go on pointing into w as first read`
}

// A function of the package that keeps the address of its parameter's
// status in a package variable.
var lastStatus *v1.WidgetStatus

func remember(o *v1.Widget) { lastStatus = &o.Status } // want remember:`^statusOnly\[0\]$`

func (r *OrderReconciler) keptByHelper(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	remember(w)
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	w.Status.Size = 2
	return r.Status().Update(ctx, w) // want `w is given to remember at line 76, where the address of o.Status is taken at line 65 and kept`
}

// Not kept: a literal run where it is made, a deferred one (run before
// the function returns), and the address of the conditions given to a
// call. The re-read becomes the Fetch.
func (r *OrderReconciler) notKept(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	mark := func(o *v1.Widget) {
		defer func() { o.Status.Ready = true }()
		func() { o.Status.Size++ }()
	}
	meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Seen", Status: "True", Reason: "Seen"})
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	mark(w)
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	w.Status.Size = 2
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// A value object is read again into itself: what a function kept of it
// still points to it. The re-read becomes the Fetch into it.
func (r *OrderReconciler) keptValue(ctx context.Context, req ctrl.Request) error {
	var order v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return err
	}
	order.Status.Size = 1
	if err := r.Status().Update(ctx, &order); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	remember(&order)
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return err
	}
	order.Status.Size = 2
	return r.Status().Update(ctx, &order) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}
