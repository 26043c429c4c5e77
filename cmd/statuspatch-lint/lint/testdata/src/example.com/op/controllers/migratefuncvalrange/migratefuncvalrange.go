package migratefuncvalrange

import (
	"context"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Phases held as values and ranged over in the range's own literal
// (issue 80, a newcomer's dock controller: for _, phase := range
// []func(*fleetv1.Dock) bool{r.open, r.ready}): each element, a method
// value of the package or a function of it, followed as its body. An
// element that changes the spec, or one -fix cannot follow (a
// parameter), keeps the write, naming the line.

type Phases struct{ client.Client }

func (r *Phases) open(w *v1.Widget) bool { // want open:`statusOnly\[0\]`
	w.Status.Size = 1
	return true
}

func (r *Phases) ready(w *v1.Widget) bool { // want ready:`statusOnly\[0\]`
	w.Status.Ready = w.Status.Size > 0
	return w.Status.Ready
}

func (r *Phases) grow(w *v1.Widget) bool {
	w.Spec.Size++
	return true
}

func sized(w *v1.Widget) bool { return w.Spec.Size > 0 } // want sized:`statusOnly\[0\]`

// Reconcile runs method values and a function of the package, all of
// which change only the status: moved.
func (r *Phases) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	for _, phase := range []func(*v1.Widget) bool{r.open, sized, r.ready} {
		if !phase(w) {
			break
		}
	}
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

type PhasesGrow struct{ Phases }

// Reconcile runs a method value that changes the spec: kept, naming it.
func (r *PhasesGrow) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	for _, phase := range []func(*v1.Widget) bool{r.open, r.grow} {
		if !phase(w) {
			break
		}
	}
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is passed to the function value phase at line \d+, .*Phases.grow, where w.Spec is changed at line \d+`
}

type PhasesParam struct{ Phases }

// run ranges over a literal holding its parameter: kept, naming it.
func (r *PhasesParam) run(w *v1.Widget, extra func(*v1.Widget) bool) {
	for _, phase := range []func(*v1.Widget) bool{r.open, extra} {
		phase(w)
	}
}

func (r *PhasesParam) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	r.run(w, sized)
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `\(not moved to the patcher: .*w is passed to the function value phase at line \d+.*extra`
}
