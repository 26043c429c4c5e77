// Package migrateretryfail: code after a write that reads the status when
// the write fails. A failed Update leaves the object as the code changed
// it; a failed Retry restores it as it was before the attempt (or as
// re-read), so such code would see another status after -fix: the
// decision stays before a Flush, which leaves the object as Update did.
package migrateretryfail

import (
	"context"
	"fmt"

	v1 "example.com/op/api/v1"
	"example.com/op/internal/patchers"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct{ client.Client }

// (a) The error path logs the status decided: it stays before p's Flush.
func (r *R) logsOnError(ctx context.Context, key client.ObjectKey) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return err
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	if !order.Status.Ready {
		order.Status.Size++
	}
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget`
		fmt.Printf("size %d not written\n", order.Status.Size)
		return err
	}
	return p.Flush(ctx)
}

// (b) The error is ignored and the status read after: it stays.
func (r *R) ignored(ctx context.Context, key client.ObjectKey) bool {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return false
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	if !order.Status.Ready {
		order.Status.Size++
	}
	_ = r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
	_ = p
	return order.Status.Size > 3
}

// (c) The error path returns; the status read after is read only when
// the write succeeded, which Retry leaves as stored: it moves.
func (r *R) returnsOnError(ctx context.Context, key client.ObjectKey) (bool, error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return false, err
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	if !order.Status.Ready {
		order.Status.Size++
	}
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget`
		return false, err
	}
	_ = p
	return order.Status.Size > 3, nil
}

// (d) -fix's own patcher: the error path logs the status; it stays.
func (r *R) ownLogs(ctx context.Context, key client.ObjectKey) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return err
	}
	if !order.Status.Ready {
		order.Status.Size++
	}
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget`
		fmt.Printf("size %d not written\n", order.Status.Size)
		return err
	}
	return nil
}

// (e) -fix's own patcher, the write's error returned: it moves.
func (r *R) ownReturns(ctx context.Context, key client.ObjectKey) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return err
	}
	if !order.Status.Ready {
		order.Status.Size++
	}
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
}
