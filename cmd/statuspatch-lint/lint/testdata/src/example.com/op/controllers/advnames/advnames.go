// Package advnames: a file that imports the patchers already (a second
// -fix run, a migration half done by hand), and a function declaring a
// local of the same name. At fc01b3f -fix wrote patchers.NewWidget...
// there, naming the local: the package no longer built.
package advnames

import (
	"context"

	v1 "example.com/op/api/v1"
	"example.com/op/internal/patchers"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct {
	client.Client
}

// Moved by hand already.
func (r *R) done(ctx context.Context, req ctrl.Request) error {
	p, err := patchers.FetchWidgetStatusPatcher(ctx, r, req.NamespacedName)
	if err != nil {
		return err
	}
	p.Object().Status.Ready = true
	return p.Flush(ctx)
}

// A local named patchers: the write stays, saying so.
func (r *R) counted(ctx context.Context, req ctrl.Request) (int, error) {
	patchers := 0
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return patchers, err
	}
	patchers++
	w.Status.Ready = true
	return patchers, r.Status().Update(ctx, w) // want `\(not moved to the patcher: the patcher package example.com/op/internal/patchers is imported as patchers, a name this function declares too\)$`
}

// Twin: no such local; it moves.
func (r *R) plain(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}
