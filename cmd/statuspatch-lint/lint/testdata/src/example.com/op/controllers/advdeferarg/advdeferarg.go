// Package advdeferarg: a deferred status write whose arguments are taken
// when the defer runs, then a re-read of the object (s111's adversary):
// a deferred call is given the patcher as its defer statement finds it,
// so it stays; a deferred literal reads the patcher's variable when it
// runs, which the re-read's Fetch assigns, so it moves.
package advdeferarg

import (
	"context"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct {
	client.Client
}

// deferDirect: the deferred Update is given w at the defer statement;
// the re-Get reads into the same object, which the Update then writes.
func (r *R) deferDirect(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	defer r.Status().Update(ctx, w) // want `the deferred call at line 27 \(its status write\) takes the patcher made before it when its defer statement runs, before the re-read of w with Get at line 32`
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `the deferred call at line 27 \(its status write\) takes the patcher made before it when its defer statement runs, before the re-read of w with Get at line 32`
		return err
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return nil
}

// deferClosure: the same in a deferred literal, which reads w when it runs.
func (r *R) deferClosure(ctx context.Context, req ctrl.Request) (retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	defer func() {
		if err := r.Status().Update(ctx, w); err != nil && retErr == nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
			retErr = err
		}
	}()
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return err
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return nil
}
