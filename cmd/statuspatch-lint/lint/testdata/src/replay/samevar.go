package replay

import (
	"context"

	v1 "example.com/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The re-read into the variable read first: the status decided from the
// first read is stored after the second (at 2009c0f the first Get was
// taken for the re-read, the values loaded after it for fresh ones, and
// the write was neither reported nor kept by -fix).
func (r *Reconciler) reReadSameVar(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	ready := !w.Status.Ready
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = ready
	return r.Status().Update(ctx, w) // want `^blind: Status\(\)\.Update of Widget: status replayed from before the re-read \(computed from the Widget's fields at line \d+, read before the re-read\)`
}

// Twin: decided after the re-read, from it.
func (r *Reconciler) reReadSameVarFresh(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = !w.Status.Ready
	return r.Status().Update(ctx, w) // want `^optimistic: Status\(\)\.Update of Widget`
}
