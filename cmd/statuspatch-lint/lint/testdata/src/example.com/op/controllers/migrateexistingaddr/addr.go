// Package migrateexistingaddr: an object handed by address beside the
// patcher the code made. The kept reason names the hand-off, not an
// assignment the code does not make; a value object handed to a
// function of the module that changes only its status moves.
package migrateexistingaddr

import (
	"context"

	v1 "example.com/op/api/v1"
	"example.com/op/internal/patchers"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct{ client.Client }

// (a) A value object handed by address to a function that changes only
// its status: the write moves onto p.
func (r *R) valueStatus(ctx context.Context, key client.ObjectKey) error {
	var order v1.Widget
	if err := r.Get(ctx, key, &order); err != nil {
		return err
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, &order)
	if order.Spec.Size < 0 {
		return p.Flush(ctx)
	}
	markReady(&order)
	return r.Status().Update(ctx, &order) // want `^handwritten status write to Widget`
}

func markReady(o *v1.Widget) { o.Status.Ready = true } // want markReady:`^statusOnly\[0\]$`

// (b) A value object handed by address to a function that replaces it:
// the write stays, the reason naming the hand-off.
func (r *R) valueReplaced(ctx context.Context, key client.ObjectKey) error {
	var order v1.Widget
	if err := r.Get(ctx, key, &order); err != nil {
		return err
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, &order)
	if order.Spec.Size < 0 {
		return p.Flush(ctx)
	}
	reset(&order)
	return r.Status().Update(ctx, &order) // want `\(not moved to the patcher: order is handed by address to reset at line 45 \(\*o is assigned whole at line 49: it may change more than its status\), after its patcher p is made at line 41: p may no longer hold what this write would send\)`
}

func reset(o *v1.Widget) { *o = v1.Widget{} }

// (c) The pointer from p.Object() handed by address: the callee may
// point it at another object. The write stays, the reason naming it.
func (r *R) pointerAddr(ctx context.Context, key client.ObjectKey) error {
	p, err := patchers.FetchWidgetStatusPatcher(ctx, r.Client, key)
	if err != nil {
		return err
	}
	order := p.Object()
	point(&order)
	order.Status.Ready = true
	return r.Status().Update(ctx, order) // want `\(not moved to the patcher: order is handed by address to point at line 59, which may point order at another object, after its patcher p is made at line 58: p may no longer hold what this write would send\)`
}

func point(o **v1.Widget) { _ = *o }
