package migratereturned

import (
	"context"
	"fmt"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A slice of functions of the package ranged over and called with the
// object (spark-operator's buildStartConnectServerArgs: optionFuncs :=
// []sparkConnectOptionFunc{masterOption, ...}): each element followed.
// An element set again, or a package slice holding one that changes the
// spec, keeps the write, naming the line.

type optionFunc func(w *v1.Widget) ([]string, error)

func sizeOption(w *v1.Widget) ([]string, error) { // want sizeOption:`statusOnly\[0\]`
	return []string{fmt.Sprint(w.Spec.Size)}, nil
}

func nameOption(w *v1.Widget) ([]string, error) { // want nameOption:`statusOnly\[0\]`
	return []string{w.Name}, nil
}

func growOption(w *v1.Widget) ([]string, error) {
	w.Spec.Size++
	return nil, nil
}

// buildArgs calls each option of a local literal: all read w.
func buildArgs(w *v1.Widget) ([]string, error) { // want buildArgs:`statusOnly\[0\]`
	options := []optionFunc{sizeOption, nameOption}
	var args []string
	for _, option := range options {
		a, err := option(w)
		if err != nil {
			return nil, err
		}
		args = append(args, a...)
	}
	return args, nil
}

// Options reads its object through the options: moved.
type Options struct{ client.Client }

func (r *Options) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	args, err := buildArgs(w)
	if err != nil {
		return ctrl.Result{}, err
	}
	w.Status.Ready = len(args) > 0
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// buildSetArgs sets an element of its options again.
func buildSetArgs(w *v1.Widget) int {
	options := [2]optionFunc{sizeOption, nameOption}
	options[1] = growOption
	n := 0
	for _, option := range options {
		a, _ := option(w)
		n += len(a)
	}
	return n
}

// OptionsSet's options are set again: kept, naming the line.
type OptionsSet struct{ client.Client }

func (r *OptionsSet) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	w.Status.Size = buildSetArgs(w)
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is passed to buildSetArgs at line \d+, where .*options is set at line \d+`
}

// packageOptions holds an option that changes the spec.
var packageOptions = []optionFunc{sizeOption, growOption}

// OptionsPackage calls the options of a package slice: kept, naming the
// one that changes the spec.
type OptionsPackage struct{ client.Client }

func (r *OptionsPackage) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	for i := range packageOptions {
		if _, err := packageOptions[i](w); err != nil {
			return ctrl.Result{}, err
		}
	}
	w.Status.Ready = true
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `\(not moved to the patcher: .*growOption, where w.Spec is changed at line \d+`
}

// runOptions calls the options it is given.
func runOptions(w *v1.Widget, options []optionFunc) {
	for _, option := range options {
		_, _ = option(w)
	}
}

// buildAppended appends to its options.
func buildAppended(w *v1.Widget) {
	options := []optionFunc{sizeOption}
	options = append(options, growOption)
	for _, option := range options {
		_, _ = option(w)
	}
}

// OptionsHanded calls options a parameter holds, and options appended
// to, one of which (growOption) changes the spec: kept, each naming the
// line.
type OptionsHanded struct{ client.Client }

func (r *OptionsHanded) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	runOptions(w, []optionFunc{sizeOption})
	w.Status.Ready = true
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is passed to runOptions at line \d+, where w is passed to the function value option at line \d+`
}

type OptionsAppended struct{ client.Client }

func (r *OptionsAppended) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	buildAppended(w)
	w.Status.Ready = true
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is passed to buildAppended at line \d+, where w is passed to the function value option at line \d+, where it may be growOption, where w.Spec is changed at line \d+`
}

// appendedArgs appends an option to its local literal before the range
// (spark-operator's buildSparkSubmitArgs appends its pod template and
// last options): each reads w.
func appendedArgs(w *v1.Widget, more bool) ([]string, error) { // want appendedArgs:`statusOnly\[0\]`
	options := []optionFunc{sizeOption}
	if more {
		options = append(options, nameOption)
	}
	var args []string
	for _, option := range options {
		a, err := option(w)
		if err != nil {
			return nil, err
		}
		args = append(args, a...)
	}
	return args, nil
}
