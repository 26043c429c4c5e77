// Package migrateguardreturn: kubebuilder's guard, `if obj.Status.X ==
// nil { decide; return r.Status().Update(ctx, obj) }`, whose body ends in
// a return of the write rather than a statement of it. The if stays
// around the Retry, returning its error, and is checked again in mutate,
// as for a guard whose write is a statement (migrateretryguard.go).
package migrateguardreturn

import (
	"context"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct{ client.Client }

func plan(w *v1.Widget) int { return w.Spec.Size + 1 } // want plan:`^statusOnly\[0\]$`

// (a) The guard returns the write's error.
func (r *R) sized(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		w.Status.Size = plan(w)
		return r.Status().Update(ctx, w) // want `^handwritten status write to Widget`
	}
	return nil
}

// (b) The guard returns a result and the write's error.
func (r *R) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	if !w.Status.Ready {
		w.Status.Ready = w.Spec.Size > 0
		return ctrl.Result{Requeue: true}, r.Status().Update(ctx, w) // want `^handwritten status write to Widget`
	}
	return ctrl.Result{}, nil
}

// (c) A guard with an init is no guard the Retry can keep: its init
// would run once outside and again in mutate. The write is a Flush, as
// before.
func (r *R) inited(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if n := plan(w); w.Status.Size == 0 {
		w.Status.Size = n
		return r.Status().Update(ctx, w) // want `^handwritten status write to Widget`
	}
	return nil
}

// (d) A guard whose return reads the object beside the write: the
// result would be read before the Retry decides, from the object as it
// was. The write is a Flush, as before.
func (r *R) counted(ctx context.Context, key client.ObjectKey) (int, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return 0, err
	}
	if w.Status.Size == 0 {
		w.Status.Size = plan(w)
		return w.Status.Size, r.Status().Update(ctx, w) // want `^handwritten status write to Widget`
	}
	return w.Status.Size, nil
}
