package migratereadfresh

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// retryIt runs f once: a stand-in for a retry helper.
func retryIt(f func() error) error { return f() }

// An Update inside a function literal: its return is the literal's, and
// the caller's error only logs, so a failed Update leaves w with the
// finalizer not stored. Kept.
func (r *Reconciler) updateInLiteral(ctx context.Context, key client.ObjectKey) error {
	var w v1.Widget
	if err := r.Get(ctx, key, &w); err != nil {
		return err
	}
	if err := retryIt(func() error {
		controllerutil.AddFinalizer(&w, finalizer)
		if err := r.Update(ctx, &w); err != nil {
			return err
		}
		return nil
	}); err != nil {
		r.seen["error"] = err.Error()
	}
	c := w.DeepCopy()
	c.Status.Ready = true
	return r.Status().Update(ctx, c) // want `^handwritten status write to Widget.*not moved to the patcher: c is w\.DeepCopy\(\) at line 31`
}

// A status change before an Update of the main resource: the Update
// leaves the status the server held, so the change is not stored by it,
// and a patcher made at the copy would take it as its base. Kept.
func (r *Reconciler) statusBeforeUpdate(ctx context.Context, key client.ObjectKey) error {
	var w v1.Widget
	if err := r.Get(ctx, key, &w); err != nil {
		return err
	}
	w.Status.Size = 2
	controllerutil.AddFinalizer(&w, finalizer)
	if err := r.Update(ctx, &w); err != nil {
		return err
	}
	c := w.DeepCopy()
	c.Status.Ready = true
	return r.Status().Update(ctx, c) // want `^handwritten status write to Widget.*not moved to the patcher: c is w\.DeepCopy\(\) at line 49, a copy of w's read at line 41, but w is changed or handed on at line 44 \(w\.Status\.Size\)`
}

// Options spread from a slice: -fix cannot tell a dry run there. Kept.
func (r *Reconciler) spreadOptions(ctx context.Context, key client.ObjectKey, opts []client.UpdateOption) error {
	var w v1.Widget
	if err := r.Get(ctx, key, &w); err != nil {
		return err
	}
	controllerutil.AddFinalizer(&w, finalizer)
	if err := r.Update(ctx, &w, opts...); err != nil {
		return err
	}
	c := w.DeepCopy()
	c.Status.Ready = true
	return r.Status().Update(ctx, c) // want `^handwritten status write to Widget.*is or may be a dry run`
}
