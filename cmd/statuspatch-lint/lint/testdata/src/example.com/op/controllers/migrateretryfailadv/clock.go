package migrateretryfailadv

import (
	"context"
	"time"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// M: a guard that reads the clock (reviewer R, s104). Checked again inside
// Retry's function it may answer otherwise, and the decision the
// handwritten code made would not be made: the guard stays before Flush.
func (r *R) clockGuard(ctx context.Context, key client.ObjectKey, started time.Time) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return err
	}
	if time.Since(started) < time.Second && !order.Status.Ready {
		order.Status.Ready = true
		if err := r.Status().Update(ctx, order); err != nil { // want `handwritten`
			return err
		}
	}
	return nil
}

// N: a decision that stamps the time, no guard reading it: it runs again
// in Retry's function on a fresh read, as a new decision would.
func (r *R) clockStamp(ctx context.Context, key client.ObjectKey) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return err
	}
	if !order.Status.Ready {
		order.Status.Size = time.Now().Second()
	}
	return r.Status().Update(ctx, order) // want `handwritten`
}

// O: a guard that receives from a channel (reviewer R, s106): checked
// again in Retry's function it would take a second value, or block; it
// stays before Flush.
func (r *R) gateGuard(ctx context.Context, key client.ObjectKey, gate chan bool) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return err
	}
	if <-gate && !order.Status.Ready {
		order.Status.Ready = true
		return r.Status().Update(ctx, order) // want `handwritten`
	}
	return nil
}
