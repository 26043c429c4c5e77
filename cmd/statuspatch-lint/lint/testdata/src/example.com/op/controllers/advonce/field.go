package advonce

import (
	"context"
	"errors"
	"sync/atomic"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type logger struct{ prefix string }

func (l logger) Info(msg string) { println(l.prefix + msg) }

type Q struct {
	client.Client
	seq atomic.Int64
	log logger
}

// A parameter's counter: made once.
func (q *Q) param(ctx context.Context, key client.ObjectKey, seq *atomic.Int64) error {
	w := &v1.Widget{}
	if err := q.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		w.Status.Size = int(seq.Add(1))
	}
	return q.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// A value method of the receiver's logger runs on each attempt, as a
// log line may; the receiver's counter is made once.
func (q *Q) logged(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := q.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		q.log.Info("sizing")
		w.Status.Size = int(q.seq.Add(1))
	}
	return q.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// The receiver's counter in a deferred write's decision: made once.
func (q *Q) deferred(ctx context.Context, key client.ObjectKey) (retErr error) {
	w := &v1.Widget{}
	if err := q.Get(ctx, key, w); err != nil {
		return err
	}
	defer func() {
		retErr = errors.Join(retErr, q.Status().Update(ctx, w)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	}()
	if w.Status.Size == 0 {
		w.Status.Size = int(q.seq.Add(1))
	}
	return nil
}
