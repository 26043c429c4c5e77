// Package migratefuncvaltests: a call through the function values of a
// package map that a _test.go file of the package sets. A test file is
// compiled only into the package's test binary, never where the write
// runs: its uses do not count, so the write moves whether the package is
// loaded with its tests (go vet, analysistest, -tests) or without (the
// command's default).
package migratefuncvaltests

import (
	"context"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type applier = func(w *v1.Widget) error

var appliers = map[string]applier{
	"ready": markReady,
}

func markReady(w *v1.Widget) error { // want markReady:`statusOnly\[0\]`
	w.Status.Ready = true
	return nil
}

type Reconciler struct{ client.Client }

func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if a, ok := appliers[req.Name]; ok {
		if err := a(w); err != nil {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}
