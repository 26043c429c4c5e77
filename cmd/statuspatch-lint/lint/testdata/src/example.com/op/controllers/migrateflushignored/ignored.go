// Package migrateflushignored: a write whose error is ignored before a
// decision. A Flush or Update that fails leaves the object as the code
// changed it, the change unsent: a Retry after it would refuse that
// change as pending, where the handwritten write after it sent both. The
// decision after such a write stays before a Flush.
package migrateflushignored

import (
	"context"

	v1 "example.com/op/api/v1"
	"example.com/op/internal/patchers"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct{ client.Client }

// (a) _ = p.Flush(ctx): the decision after it stays before p's Flush.
func (r *R) ignored(ctx context.Context, key client.ObjectKey) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return err
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	order.Status.Ready = true
	_ = p.Flush(ctx)
	if order.Status.Size < 3 {
		order.Status.Size++
	}
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
}

// (b) The Flush's error returned: the object after it is as stored, and
// the decision moves into p's Retry.
func (r *R) checked(ctx context.Context, key client.ObjectKey) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return err
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	order.Status.Ready = true
	if err := p.Flush(ctx); err != nil {
		return err
	}
	if order.Status.Size < 3 {
		order.Status.Size++
	}
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
}

// (c) A Flush whose error is only logged goes on with the change unsent.
func (r *R) logged(ctx context.Context, key client.ObjectKey) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return err
	}
	p := patchers.NewWidgetStatusPatcher(r.Client, order)
	order.Status.Ready = true
	if err := p.Flush(ctx); err != nil {
		println(err.Error())
	}
	if order.Status.Size < 3 {
		order.Status.Size++
	}
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
}

// (d) -fix's own patcher: an Update whose error is ignored, then a
// decision: the second write is a Flush, its decision before it.
func (r *R) ownIgnored(ctx context.Context, key client.ObjectKey) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return err
	}
	order.Status.Ready = true
	_ = r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
	if order.Status.Size < 3 {
		order.Status.Size++
	}
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
}

// (e) -fix's own patcher, the first write's error returned: the second
// decision moves into Retry.
func (r *R) ownChecked(ctx context.Context, key client.ObjectKey) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, key, order); err != nil {
		return err
	}
	order.Status.Ready = true
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget`
		return err
	}
	if order.Status.Size < 3 {
		order.Status.Size++
	}
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
}
