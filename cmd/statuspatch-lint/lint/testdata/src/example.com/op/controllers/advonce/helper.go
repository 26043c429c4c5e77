package advonce

import (
	"context"
	"sync/atomic"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// seatReconciler hands out seats from a counter of its own, by a step
// its caller gives: both made once in the Retry the write becomes.
type seatReconciler struct {
	c     client.Client
	seats atomic.Int64
}

func (s *seatReconciler) reconcile(ctx context.Context, crew *v1.Widget, step int64) error {
	if crew.Status.Size == 0 {
		crew.Status.Size = int(s.seats.Add(step))
	}
	return s.c.Status().Update(ctx, crew) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

var seats seatReconciler

func (r *R) seat(ctx context.Context, key client.ObjectKey) error {
	crew := &v1.Widget{}
	if err := r.Get(ctx, key, crew); err != nil {
		return err
	}
	return seats.reconcile(ctx, crew, 2)
}
