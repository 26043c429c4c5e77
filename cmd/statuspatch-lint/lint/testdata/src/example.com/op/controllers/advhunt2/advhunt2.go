// Package advhunt2: -fix over shapes real reconcilers compose (s112's
// adversary): a shadowed object, a switch whose cases write beside a
// deferred write, a named result a defer changes (this file: moved, and
// right); the client a write goes through (clients.go); reads -fix does
// not take, for the reason they stay (reads.go).
package advhunt2

import (
	"context"
	"fmt"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct {
	client.Client
}

// shadowIf: the inner w is a copy; its write stores the copy's status
// and stays; the outer w's write moves, its patcher made at the read.
func (r *R) shadowIf(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if w.Spec.Size > 0 {
		w := w.DeepCopy()
		w.Status.Ready = true
		return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is not read with Get in this function before the write: where its status changes start is not seen; make NewWidgetStatusPatcher there and call its Flush\(ctx\) here\)$`
	}
	w.Status.Size = 1
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// switchDefer: two cases write, a shared defer writes when they fail:
// one patcher, its Flush in each.
func (r *R) switchDefer(ctx context.Context, req ctrl.Request) (err error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			w.Status.Ready = false
			_ = r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		}
	}()
	switch w.Spec.Size {
	case 0:
		w.Status.Size = 0
		return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	case 1:
		w.Status.Size = 1
		return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	}
	return nil
}

// namedDefer: the write's error is returned through a named result a
// defer wraps.
func (r *R) namedDefer(ctx context.Context, req ctrl.Request) (err error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			err = fmt.Errorf("widget %s: %w", w.Name, err)
		}
	}()
	w.Status.Ready = true
	err = r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	return err
}
