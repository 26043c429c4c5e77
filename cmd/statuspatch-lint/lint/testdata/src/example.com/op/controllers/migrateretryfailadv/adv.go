package migrateretryfailadv

import (
	"context"
	"fmt"

	v1 "example.com/op/api/v1"
	"example.com/op/internal/patchers"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/tools/events"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct {
	client.Client
	Rec  events.EventRecorder
	n    int
	last *v1.Widget
}

// A: error branch reads status, with an else.
func (r *R) withElse(ctx context.Context, key client.ObjectKey) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return err
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	if !order.Status.Ready {
		order.Status.Size++
	}
	if err := r.Status().Update(ctx, order); err != nil { // want `handwritten`
		fmt.Printf("size %d not written\n", order.Status.Size)
		return err
	} else {
		fmt.Println("ok")
	}
	_ = p
	return nil
}

// B: the condition reads the status when the write failed.
func (r *R) inCond(ctx context.Context, key client.ObjectKey) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return err
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	if !order.Status.Ready {
		order.Status.Size++
	}
	if err := r.Status().Update(ctx, order); err != nil && order.Status.Size > 2 { // want `handwritten`
		return err
	}
	_ = p
	return nil
}

// C: goto out of an error branch that ends in return.
func (r *R) gotoOut(ctx context.Context, key client.ObjectKey) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return err
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	if !order.Status.Ready {
		order.Status.Size++
	}
	if err := r.Status().Update(ctx, order); err != nil { // want `handwritten`
		if apierrors.IsConflict(err) {
			goto conflict
		}
		return err
	}
	_ = p
	return nil
conflict:
	fmt.Printf("size %d not written\n", order.Status.Size)
	return nil
}

// D: a deferred read of the status after a failed write.
func (r *R) deferred(ctx context.Context, key client.ObjectKey) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return err
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	defer func() { fmt.Printf("size %d\n", order.Status.Size) }()
	if !order.Status.Ready {
		order.Status.Size++
	}
	if err := r.Status().Update(ctx, order); err != nil { // want `handwritten`
		return err
	}
	_ = p
	return nil
}

// E: an event on the error path (reads metadata, not the status).
func (r *R) event(ctx context.Context, key client.ObjectKey) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return err
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	if !order.Status.Ready {
		order.Status.Size++
	}
	if err := r.Status().Update(ctx, order); err != nil { // want `handwritten`
		r.Rec.Eventf(order, nil, "Warning", "Failed", "Update", "not written: %v", err)
		return err
	}
	_ = p
	return nil
}

// F: the error wrapped with the status.
func (r *R) wrapped(ctx context.Context, key client.ObjectKey) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return err
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	if !order.Status.Ready {
		order.Status.Size++
	}
	if err := r.Status().Update(ctx, order); err != nil { // want `handwritten`
		return fmt.Errorf("size %d: %w", order.Status.Size, err)
	}
	_ = p
	return nil
}

// G: a guard with a side effect.
func (r *R) sideGuard(ctx context.Context, key client.ObjectKey) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return err
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	if order.Spec.Size < 0 {
		return p.Flush(ctx)
	}
	if r.next() > order.Status.Size {
		order.Status.Size = r.n
		if err := r.Status().Update(ctx, order); err != nil { // want `handwritten`
			return err
		}
	}
	return nil
}

func (r *R) next() int { r.n++; return r.n }

// H: return list, status read beside the write in the same return.
func (r *R) sameReturn(ctx context.Context, key client.ObjectKey) (bool, error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return false, err
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	if !order.Status.Ready {
		order.Status.Size++
	}
	_ = p
	return order.Status.Size > 3, r.Status().Update(ctx, order) // want `handwritten`
}

// I: a value object handed by address to a callee that stores the pointer.
func (r *R) stores(ctx context.Context, key client.ObjectKey) error {
	var order v1.Widget
	if err := r.Get(ctx, key, &order); err != nil {
		return err
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, &order)
	if order.Spec.Size < 0 {
		return p.Flush(ctx)
	}
	r.keep(&order)
	r.last.Status.Size = 7
	return r.Status().Update(ctx, &order) // want `handwritten`
}

func (r *R) keep(o *v1.Widget) { o.Status.Ready = true; r.last = o }

// J: a goroutine given the address.
func (r *R) goroutine(ctx context.Context, key client.ObjectKey) error {
	var order v1.Widget
	if err := r.Get(ctx, key, &order); err != nil {
		return err
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, &order)
	if order.Spec.Size < 0 {
		return p.Flush(ctx)
	}
	mark(&order)
	mark(&order)
	return r.Status().Update(ctx, &order) // want `handwritten`
}

func mark(o *v1.Widget) { go func() { o.Status.Size = 9 }() } // want mark:`^statusOnly\[0\]$`

// K: a Flush whose error branch ends in return but jumps on with goto.
func (r *R) flushGoto(ctx context.Context, key client.ObjectKey) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return err
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	order.Status.Ready = true
	if err := p.Flush(ctx); err != nil {
		if apierrors.IsConflict(err) {
			goto decide
		}
		return err
	}
decide:
	fmt.Println("deciding")
	if order.Status.Size < 3 {
		order.Status.Size++
	}
	return r.Status().Update(ctx, order) // want `handwritten`
}

// L: G's guard, the patcher -fix's own.
func (r *R) sideGuardOwn(ctx context.Context, key client.ObjectKey) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return err
	}
	if r.next() > order.Status.Size {
		order.Status.Size = r.n
		if err := r.Status().Update(ctx, order); err != nil { // want `handwritten`
			return err
		}
	}
	return nil
}
