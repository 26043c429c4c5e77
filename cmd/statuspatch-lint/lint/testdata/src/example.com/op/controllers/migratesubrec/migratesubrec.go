// Package migratesubrec: sub-reconcilers with a client of their own,
// built in the call (&harbour{c: r.Client}), in a local, or held in a
// field of the reconciler. A sub-reconciler built from a client variable
// or field takes the patcher as a write-only helper does: the caller
// makes it with that client, or passes the patcher of its own writes
// when they go through the same client.
package migratesubrec

import (
	"context"
	"sync/atomic"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type manager interface{ GetClient() client.Client }

type Reconciler struct {
	client.Client
	berth *berth
	moor  *moor
}

// harbour is built in its call; the caller writes the object too: one
// patcher, the caller's, made with the client harbour is built with.
type harbour struct {
	c client.Client
}

func (h *harbour) reconcile(ctx context.Context, w *v1.Widget) error {
	if w.Status.Size == w.Spec.Size {
		return nil
	}
	w.Status.Size = w.Spec.Size
	return h.c.Status().Update(ctx, w) // want `^handwritten status write to Widget`
}

func (r *Reconciler) Reconcile(ctx context.Context, key client.ObjectKey) (err error) {
	w := &v1.Widget{}
	if err = r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = true
	if err = r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget`
		return err
	}
	if err = (&harbour{c: r.Client}).reconcile(ctx, w); err != nil {
		return err
	}
	return nil
}

// pier is built in a local after the read; the caller only reads.
type pier struct {
	c client.Client
}

func (p *pier) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return p.c.Status().Update(ctx, w) // want `^handwritten status write to Widget`
}

func (r *Reconciler) local(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	p := &pier{c: r.Client}
	return p.reconcile(ctx, w)
}

// quay is given its client by position.
type quay struct {
	c client.Client
}

func (q *quay) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 3
	return q.c.Status().Update(ctx, w) // want `^handwritten status write to Widget`
}

func (r *Reconciler) positional(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return (&quay{r.Client}).reconcile(ctx, w)
}

// berth is held in a field of the reconciler, built in SetupWithManager
// with the manager's client; the caller's own writes go through r.Client:
// one patcher would write through one client.
type berth struct {
	c client.Client
}

func (b *berth) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 4
	return b.c.Status().Update(ctx, w) // want `\(not moved to the patcher: w is a parameter of reconcile: its call at line 112 writes through r\.berth\.c \(r\.berth is set in SetupWithManager at line 117\), not through r, as its own write of w at line 109 does; one patcher would make both writes through one client\)$`
}

func (r *Reconciler) held(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = false
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget`
		return err
	}
	return r.berth.reconcile(ctx, w)
}

func (r *Reconciler) SetupWithManager(mgr manager) error {
	r.Client = mgr.GetClient()
	r.berth = &berth{c: mgr.GetClient()}
	r.moor = &moor{c: mgr.GetClient()}
	return nil
}

// dock is built with a client a call makes: not named again.
type dock struct {
	c client.Client
}

func (d *dock) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 5
	return d.c.Status().Update(ctx, w) // want `\(not moved to the patcher: w is a parameter of reconcile: its call at line 139 builds its receiver with c: newClient\(\), not a client variable or field\)$`
}

func newClient() client.Client { return nil }

func (r *Reconciler) made(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return (&dock{c: newClient()}).reconcile(ctx, w)
}

// moor is held in a field too, and its caller only reads the object: the
// patcher is made with the client moor writes through, r.moor.c.
type moor struct {
	c client.Client
}

func (m *moor) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 6
	return m.c.Status().Update(ctx, w) // want `^handwritten status write to Widget`
}

func (r *Reconciler) moored(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return r.moor.reconcile(ctx, w)
}

var rosterTokens atomic.Int64

// rosterReconciler decides from crew's status and hands out a token
// (issue 80, item 2): its write becomes the patcher's Retry of that
// decision, the token made once (at 85b631d a Flush, refused under a
// manager, the next reconcile handing out a second token).
type rosterReconciler struct {
	c client.Client
}

func (s *rosterReconciler) reconcile(ctx context.Context, crew *v1.Widget) error {
	if crew.Status.Size == 0 {
		crew.Status.Size = int(rosterTokens.Add(1))
	}
	return s.c.Status().Update(ctx, crew) // want `^handwritten status write to Widget`
}

func (r *Reconciler) roster(ctx context.Context, key client.ObjectKey) error {
	crew := &v1.Widget{}
	if err := r.Get(ctx, key, crew); err != nil {
		return err
	}
	return (&rosterReconciler{c: r.Client}).reconcile(ctx, crew)
}
