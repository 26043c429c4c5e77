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

type PhasesFrom struct{ Phases }

// phases returns the phases as a literal of method values (issue 80:
// `phases := r.phases()`, the common variant of the range's own
// literal).
func (r *PhasesFrom) phases() []func(*v1.Widget) bool {
	return []func(*v1.Widget) bool{r.open, sized, r.ready}
}

// Reconcile ranges over what a method of the package returns, a literal
// of functions that change only the status: moved. At 20b6c52 it stayed,
// "passed to the function value phase ..., which is not followed".
func (r *PhasesFrom) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	for _, phase := range r.phases() {
		if !phase(w) {
			break
		}
	}
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

type PhasesVar struct{ Phases }

// phases returns a variable it may have grown: not followed.
func (r *PhasesVar) phases(more bool) []func(*v1.Widget) bool {
	fs := []func(*v1.Widget) bool{r.open}
	if more {
		fs = append(fs, r.grow)
	}
	return fs
}

// Reconcile ranges over what phases returns, not a literal: kept, naming
// the call and the return.
func (r *PhasesVar) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	for _, phase := range r.phases(true) {
		phase(w)
	}
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is passed to the function value phase at line \d+, .*the range is over r.phases at line \d+, which returns other than a literal at line \d+`
}

type PhasesLocal struct{ Phases }

// Reconcile ranges over the literal in a local, and calls one of a map
// of them: moved (docs/kubebuilder.md's variants).
func (r *PhasesLocal) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	phases := []func(*v1.Widget) bool{r.open, r.ready}
	for _, phase := range phases {
		phase(w)
	}
	byName := map[string]func(*v1.Widget) bool{"open": r.open, "sized": sized}
	for _, phase := range byName {
		phase(w)
	}
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}
