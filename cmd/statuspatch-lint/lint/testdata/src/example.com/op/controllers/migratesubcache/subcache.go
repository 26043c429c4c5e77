// Package migratesubcache: a reconciler whose own client is
// patcher.ForManager's and whose sub-reconciler, held in a field, is
// built with the manager's plain client (statuspatch-gen init wires the
// first and leaves the second). -fix moves the sub-reconciler's write
// through its own client, and where the patcher's Retry would read the
// object again through the manager's cache it says so, naming the line
// to change.
package migratesubcache

import (
	"context"
	"sync/atomic"

	v1 "example.com/op/api/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var tokens atomic.Int64

type Reconciler struct {
	client.Client
	ports *portReconciler
	tags  *tagReconciler
	docks *dockReconciler
}

// portReconciler decides from the status: its decision goes into Retry,
// whose re-read goes through its client, the manager's plain one.
type portReconciler struct {
	c client.Client
}

func (s *portReconciler) reconcile(ctx context.Context, port *v1.Widget) error {
	if port.Status.Size == 0 {
		port.Status.Size = int(tokens.Add(1))
	}
	return s.c.Status().Update(ctx, port) // want `^handwritten status write to Widget`
}

func (r *Reconciler) Reconcile(ctx context.Context, key client.ObjectKey) error {
	port := &v1.Widget{}
	if err := r.Get(ctx, key, port); err != nil {
		return err
	}
	if r.ports == nil {
		r.ports = &portReconciler{c: r.Client} // kubebuilder's test, with no SetupWithManager
	}
	return r.ports.reconcile(ctx, port)
}

// tagReconciler decides nothing from the status: a Flush, which reads
// nothing again; no note.
type tagReconciler struct {
	c client.Client
}

func (t *tagReconciler) reconcile(ctx context.Context, tag *v1.Widget) error {
	tag.Status.Ready = true
	return t.c.Status().Update(ctx, tag) // want `^handwritten status write to Widget`
}

func (r *Reconciler) tagged(ctx context.Context, key client.ObjectKey) error {
	tag := &v1.Widget{}
	if err := r.Get(ctx, key, tag); err != nil {
		return err
	}
	return r.tags.reconcile(ctx, tag)
}

// dockReconciler is built with r.Client, ForManager's: no note.
type dockReconciler struct {
	c client.Client
}

func (d *dockReconciler) reconcile(ctx context.Context, dock *v1.Widget) error {
	if dock.Status.Size == 0 {
		dock.Status.Size = int(tokens.Add(1))
	}
	return d.c.Status().Update(ctx, dock) // want `^handwritten status write to Widget`
}

func (r *Reconciler) docked(ctx context.Context, key client.ObjectKey) error {
	dock := &v1.Widget{}
	if err := r.Get(ctx, key, dock); err != nil {
		return err
	}
	return r.docks.reconcile(ctx, dock)
}

func (r *Reconciler) SetupWithManager(mgr patcher.Manager) error {
	r.Client = patcher.ForManager(mgr, patcher.WithFieldOwner("widget"))
	r.ports = &portReconciler{c: mgr.GetClient()}
	r.tags = &tagReconciler{c: mgr.GetClient()}
	r.docks = &dockReconciler{c: r.Client}
	return nil
}

// Plain has not adopted ForManager: its own client and its
// sub-reconciler's are the same plain one; no note.
type Plain struct {
	client.Client
	quays *quayReconciler
}

type quayReconciler struct {
	c client.Client
}

func (q *quayReconciler) reconcile(ctx context.Context, quay *v1.Widget) error {
	if quay.Status.Size == 0 {
		quay.Status.Size = int(tokens.Add(1))
	}
	return q.c.Status().Update(ctx, quay) // want `^handwritten status write to Widget`
}

func (p *Plain) Reconcile(ctx context.Context, key client.ObjectKey) error {
	quay := &v1.Widget{}
	if err := p.Get(ctx, key, quay); err != nil {
		return err
	}
	return p.quays.reconcile(ctx, quay)
}

func (p *Plain) SetupWithManager(mgr patcher.Manager) error {
	p.Client = mgr.GetClient()
	p.quays = &quayReconciler{c: mgr.GetClient()}
	return nil
}

// Berths writes through its sub-structs' clients itself, not through a
// helper of theirs: the same note where the field's client is the
// manager's plain one, set in a literal (berths) or by a constructor that
// keeps its parameter (newPierSet, newWharfSet); none where the
// constructor keeps another client (newSlipSet).
type Berths struct {
	client.Client
	berths *berthSet
	piers  *pierSet
	wharfs *wharfSet
	slips  *slipSet
}

type berthSet struct{ c client.Client }

type pierSet struct{ c client.Client }

func newPierSet(c client.Client) *pierSet { return &pierSet{c: c} }

type wharfSet struct{ c client.Client }

func newWharfSet(c client.Client) *wharfSet {
	w := &wharfSet{}
	w.c = c
	return w
}

type slipSet struct{ c client.Client }

func newSlipSet(c, alt client.Client) *slipSet {
	_ = c
	return &slipSet{c: alt}
}

func (b *Berths) moor(ctx context.Context, key client.ObjectKey) error {
	berth := &v1.Widget{}
	if err := b.Get(ctx, key, berth); err != nil {
		return err
	}
	if berth.Status.Size == 0 {
		berth.Status.Size = int(tokens.Add(1))
	}
	return b.berths.c.Status().Update(ctx, berth) // want `^handwritten status write to Widget`
}

func (p *pierSet) reconcile(ctx context.Context, pier *v1.Widget) error {
	if pier.Status.Size == 0 {
		pier.Status.Size = int(tokens.Add(1))
	}
	return p.c.Status().Update(ctx, pier) // want `^handwritten status write to Widget`
}

func (b *Berths) land(ctx context.Context, key client.ObjectKey) error {
	pier := &v1.Widget{}
	if err := b.Get(ctx, key, pier); err != nil {
		return err
	}
	return b.piers.reconcile(ctx, pier)
}

func (b *Berths) tie(ctx context.Context, key client.ObjectKey) error {
	wharf := &v1.Widget{}
	if err := b.Get(ctx, key, wharf); err != nil {
		return err
	}
	if wharf.Status.Size == 0 {
		wharf.Status.Size = int(tokens.Add(1))
	}
	return b.wharfs.c.Status().Update(ctx, wharf) // want `^handwritten status write to Widget`
}

func (b *Berths) slip(ctx context.Context, key client.ObjectKey) error {
	slip := &v1.Widget{}
	if err := b.Get(ctx, key, slip); err != nil {
		return err
	}
	if slip.Status.Size == 0 {
		slip.Status.Size = int(tokens.Add(1))
	}
	return b.slips.c.Status().Update(ctx, slip) // want `^handwritten status write to Widget`
}

func (b *Berths) SetupWithManager(mgr patcher.Manager) error {
	b.Client = patcher.ForManager(mgr, patcher.WithFieldOwner("berth"))
	b.berths = &berthSet{c: mgr.GetClient()}
	b.piers = newPierSet(mgr.GetClient())
	b.wharfs = newWharfSet(mgr.GetClient())
	b.slips = newSlipSet(mgr.GetClient(), b.Client)
	return nil
}
