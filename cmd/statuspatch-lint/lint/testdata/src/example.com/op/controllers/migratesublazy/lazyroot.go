package migratesublazy

// A client set after the read through a package variable, or by a call
// -fix cannot follow (review R4 of s104: -fix made the patcher before
// the client was set, and the project's test panicked on a nil pointer).

import (
	"context"
	"sync"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// coracle is held in a package variable that a function sets lazily: the
// variable is a root like a field, and the patcher is made after the
// call that sets it.
type coracle struct {
	c client.Client
}

var defaultCoracle *coracle

func ensureCoracle(c client.Client) {
	if defaultCoracle == nil {
		defaultCoracle = &coracle{c: c}
	}
}

func (s *coracle) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 10
	return s.c.Status().Update(ctx, w) // want `^handwritten status write to Widget`
}

func (r *Reconciler) launch(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	ensureCoracle(r.Client)
	return defaultCoracle.reconcile(ctx, w)
}

// Pinnace's sub-reconcilers are set by methods it holds in fields of
// function type, called through them or handed to sync.Once's Do: what
// a field holds is set where -fix does not follow, so the write stays,
// naming the call.
type Pinnace struct {
	client.Client
	dinghy   *dinghy
	yacht    *yacht
	prep     func()
	prepOnce func()
	once     sync.Once
}

type dinghy struct {
	c client.Client
}

func (d *dinghy) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 11
	return d.c.Status().Update(ctx, w) // want `^handwritten status write to Widget: .* \(not moved to the patcher: w is a parameter of reconcile: its call at line 81 names its client k\.dinghy\.c, which may be set after the read the patcher is made at: the call at line 80 may set it: k\.prep is a field holding a function -fix does not see\)`
}

type yacht struct {
	c client.Client
}

func (y *yacht) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 12
	return y.c.Status().Update(ctx, w) // want `^handwritten status write to Widget: .* \(not moved to the patcher: w is a parameter of reconcile: its call at line 90 names its client k\.yacht\.c, which may be set after the read the patcher is made at: the call at line 89 may set it: it may be k\.prepOnce, not a function of the package\)`
}

func (k *Pinnace) Reconcile(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := k.Get(ctx, key, w); err != nil {
		return err
	}
	k.prep()
	return k.dinghy.reconcile(ctx, w)
}

func (k *Pinnace) sail(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := k.Get(ctx, key, w); err != nil {
		return err
	}
	k.once.Do(k.prepOnce)
	return k.yacht.reconcile(ctx, w)
}

func (k *Pinnace) ensure() {
	if k.dinghy == nil {
		k.dinghy = &dinghy{c: k.Client}
	}
	if k.yacht == nil {
		k.yacht = &yacht{c: k.Client}
	}
}

func (k *Pinnace) SetupWithManager() {
	k.prep, k.prepOnce = k.ensure, k.ensure
}
