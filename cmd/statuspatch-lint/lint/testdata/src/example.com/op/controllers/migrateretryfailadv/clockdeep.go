package migrateretryfailadv

import (
	"context"
	"sync/atomic"
	"time"

	v1 "example.com/op/api/v1"
	"example.com/op/clockutil"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var (
	started  time.Time
	inflight atomic.Int64
	admitted int64
)

// inGrace reads the clock two calls deep: elapsed calls time.Since.
func (r *R) inGrace() bool { return elapsed() < time.Second }

func elapsed() time.Duration { return time.Since(started) }

// underCap reads a counter other goroutines change with atomic.LoadInt64.
func underCap() bool { return atomic.LoadInt64(&admitted) < 3 }

// small reads only its argument: a guard calling it moves.
func small(n int) bool { return n < 3 }

// O: a guard reading the clock through a method of the package (reviewer
// R, s105): checked again in Retry's function it may answer otherwise.
func (r *R) graceGuard(ctx context.Context, key client.ObjectKey) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return err
	}
	if r.inGrace() && !order.Status.Ready {
		order.Status.Ready = true
		if err := r.Status().Update(ctx, order); err != nil { // want `handwritten`
			return err
		}
	}
	return nil
}

// P: a guard reading an atomic counter other reconciles change: Load
// changes nothing, but checked again it may answer otherwise.
func (r *R) loadGuard(ctx context.Context, key client.ObjectKey) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return err
	}
	if inflight.Load() < 3 && !order.Status.Ready {
		order.Status.Ready = true
		if err := r.Status().Update(ctx, order); err != nil { // want `handwritten`
			return err
		}
	}
	return nil
}

// Q: the same through a function of the package calling atomic.LoadInt64.
func (r *R) capGuard(ctx context.Context, key client.ObjectKey) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return err
	}
	if underCap() && !order.Status.Ready {
		order.Status.Ready = true
		if err := r.Status().Update(ctx, order); err != nil { // want `handwritten`
			return err
		}
	}
	return nil
}

// S: a guard calling a function of the package that reads only what it
// is given moves into Retry with its decision, checked again there.
func (r *R) pureGuard(ctx context.Context, key client.ObjectKey) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return err
	}
	if small(order.Status.Size) && !order.Status.Ready {
		order.Status.Ready = true
		if err := r.Status().Update(ctx, order); err != nil { // want `handwritten`
			return err
		}
	}
	return nil
}

// T: a decision stamping the counter, no guard reading it: it runs again
// in Retry's function on a fresh read, as one stamping the time does.
func (r *R) loadStamp(ctx context.Context, key client.ObjectKey) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return err
	}
	if !order.Status.Ready {
		order.Status.Size = int(inflight.Load())
	}
	return r.Status().Update(ctx, order) // want `handwritten`
}

// U: a guard calling a function of another package of the module, whose
// body is not seen here: it may read the clock, and stays before Flush.
func (r *R) moduleGuard(ctx context.Context, key client.ObjectKey) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return err
	}
	if clockutil.Fresh(started) && !order.Status.Ready {
		order.Status.Ready = true
		if err := r.Status().Update(ctx, order); err != nil { // want `handwritten`
			return err
		}
	}
	return nil
}
