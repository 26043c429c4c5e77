// Package migrateexistingretryrev: writes beside a patcher the code made
// whose decision must not move into its Retry, found by review: each
// stays the patcher's Flush, the reason named, and the fixed file builds.
package migrateexistingretryrev

import (
	"context"

	v1 "example.com/op/api/v1"
	"example.com/op/internal/patchers"
	"k8s.io/client-go/tools/events"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct {
	client.Client
	Recorder events.EventRecorder
}

// (a) A status change made through p.Object() before the decision: the
// model does not follow it, and Retry would refuse it as pending, every
// time. The write stays p's Flush, which sends both changes.
func (r *R) throughObject(ctx context.Context, key client.ObjectKey) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return err
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	p.Object().Status.Size = 5
	if !order.Status.Ready {
		order.Status.Ready = true
	}
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
}

// (b) A guard whose write assigns the function's err stays around the
// Retry, reading order: order := p.Object() stays too.
func (r *R) nestedGuard(ctx context.Context, key client.ObjectKey) (err error) {
	p, err := patchers.FetchWidgetStatusPatcher(ctx, r.Client, key)
	if err != nil {
		return err
	}
	order := p.Object()
	if order.Status.Size == 0 {
		order.Status.Size = order.Spec.Size
		if err = r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget`
			return err
		}
	}
	return nil
}

// (c) order = p.Object() with no declaration there: the variable would be
// left unused by Retry's function. The write stays p's Flush.
func (r *R) assigned(ctx context.Context, key client.ObjectKey) error {
	var order *v1.Widget
	p, err := patchers.FetchWidgetStatusPatcher(ctx, r.Client, key)
	if err != nil {
		return err
	}
	order = p.Object()
	order.Status.Size = order.Spec.Size + 1
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
}

// (d) An event in the decision would be recorded again on each attempt.
func (r *R) event(ctx context.Context, key client.ObjectKey) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return err
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	if order.Spec.Size < 0 {
		return p.Flush(ctx)
	}
	if !order.Status.Ready {
		r.Recorder.Eventf(order, nil, "Normal", "Ready", "Reconciling", "widget %s ready", order.Name)
		order.Status.Ready = true
	}
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
}
