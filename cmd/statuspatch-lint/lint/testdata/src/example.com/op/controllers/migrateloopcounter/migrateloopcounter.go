// Package migrateloopcounter: conflict loops whose decision hands out a
// value from outside it (a package's atomic counter, a function setting a
// package variable). retry.RetryOnConflict ran the loop's function, and
// so the counter, again on each attempt that found the status undecided;
// Retry's mutate does the same, so the calls move unchanged, not made
// once, and the fix's note says they run on each attempt as in the loop
// (issue 80's retryonconflict-counter-not-once).
package migrateloopcounter

import (
	"context"
	"sync/atomic"

	v1 "example.com/op/api/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var tokens atomic.Int64

var last int

func nextID() int {
	last++
	return last
}

type Reconciler struct {
	client.Client
}

// crew hands out a token from a package's counter in the loop.
func (r *Reconciler) crew(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := r.Get(ctx, key, w); err != nil {
			return err
		}
		if w.Status.Size == 0 {
			w.Status.Size = int(tokens.Add(1))
		}
		return r.Status().Update(ctx, w) // want `^handwritten status write to Widget`
	})
	return client.IgnoreNotFound(err)
}

// roster's id comes from a function that sets a package variable.
func (r *Reconciler) roster(ctx context.Context, key client.ObjectKey) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		w := &v1.Widget{}
		if err := r.Get(ctx, key, w); err != nil {
			return err
		}
		if !w.Status.Ready {
			w.Status.Ready = nextID() > 0
		}
		return r.Status().Update(ctx, w) // want `^handwritten status write to Widget`
	})
}

// plain only reads: its note says nothing more.
func (r *Reconciler) plain(ctx context.Context, key client.ObjectKey) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		w := &v1.Widget{}
		if err := r.Get(ctx, key, w); err != nil {
			return err
		}
		w.Status.Ready = true
		return r.Status().Update(ctx, w) // want `^handwritten status write to Widget`
	})
}
