// Package advreadsfact: review RB of s97b's readsFact (a helper of
// another package given a client that only reads the object keeps the
// lock): the writes that come after it, by the helper it returns, in a
// goroutine.
package advreadsfact

import (
	"context"

	v1 "example.com/api/v1"
	"example.com/op/advreadhelper"
	"example.com/op/readhelper"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
}

// cluster-api's patch.NewHelper(obj, c), then helper.Patch(ctx, obj)
// between the base and the status patch: the helper's Patch moves the
// resourceVersion, and a lock would conflict.
func (r *Reconciler) helperPatchBetween(ctx context.Context, g *v1.Gadget) error {
	base := g.DeepCopyObject().(*v1.Gadget)
	h, err := readhelper.NewHelper(g, r.Client)
	if err != nil {
		return err
	}
	g.Labels = map[string]string{"a": "b"}
	if err := h.Patch(ctx, g); err != nil {
		return err
	}
	g.Status.Phase = "Ready"
	return r.Status().Patch(ctx, g, client.MergeFrom(base)) // want `^blind: .*\(no fix: .*which is given the object: readhelper\.Patch is a method of a value holding a client, and may update it`
}

// Twin: the helper's Patch after the status patch: the lock stays.
func (r *Reconciler) helperPatchAfter(ctx context.Context, g *v1.Gadget) error {
	base := g.DeepCopyObject().(*v1.Gadget)
	h, err := readhelper.NewHelper(g, r.Client)
	if err != nil {
		return err
	}
	g.Status.Phase = "Ready"
	if err := r.Status().Patch(ctx, g, client.MergeFrom(base)); err != nil { // want `^blind: Status\(\)\.Patch of Gadget: client\.MergeFrom without optimistic lock$`
		return err
	}
	return h.Patch(ctx, g)
}

// The Writer NewWriter returns writes the object between.
func (r *Reconciler) writerBetween(ctx context.Context, g *v1.Gadget) error {
	base := g.DeepCopyObject().(*v1.Gadget)
	w, err := advreadhelper.NewWriter(g, r.Client)
	if err != nil {
		return err
	}
	if err := w.Write(ctx, g); err != nil {
		return err
	}
	g.Status.Phase = "Ready"
	return r.Status().Patch(ctx, g, client.MergeFrom(base)) // want `^blind: .*\(no fix: .*which is given the object: advreadhelper\.Write is a method of a value holding a client, and may update it`
}

// A goroutine given the object and the client: no fact, no lock.
func (r *Reconciler) goroutineBetween(ctx context.Context, g *v1.Gadget) error {
	base := g.DeepCopyObject().(*v1.Gadget)
	if err := advreadhelper.Watch(ctx, g, r.Client); err != nil {
		return err
	}
	g.Status.Phase = "Ready"
	return r.Status().Patch(ctx, g, client.MergeFrom(base)) // want `^blind: .*\(no fix: .*Watch is given a client beside it, and may update it`
}
