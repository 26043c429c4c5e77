// Package recovered: a status write in a function the reconcile defers
// itself (defer r.finish(...)), whose decision calls recover(). recover
// stops the panic only called by the deferred function itself: moved
// into Retry's function it would stop none, and the panic would go on.
// The decision stays before the write (migrateretry.go's stopWhy), which
// becomes a Flush; a decision without recover() still moves into Retry.
package recovered

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct {
	client.Client
}

func (r *R) Reconcile(ctx context.Context, key client.ObjectKey) error {
	defer r.finish(ctx, key)
	defer r.count(ctx, key)
	return nil
}

// finish marks a first panic in the status: its recover() stays in
// finish, the write a Flush.
func (r *R) finish(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if recover() != nil && w.Status.Size == 0 {
		w.Status.Size++
	}
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// count decides from the status with no recover(): it moves into Retry.
func (r *R) count(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		w.Status.Size++
	}
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}
