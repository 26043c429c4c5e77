// Package migratesublazy: sub-reconcilers whose client a reconciler's
// field holds, set lazily in Reconcile between the read and the call (as
// kubebuilder's controller test, which never calls SetupWithManager,
// needs). The patcher is made where its client is set, after the lazy
// init, not at the read: made at the read, its client would be a field
// of a nil pointer (issue 80's subreconciler-lazy-field-nil: -fix wrote
// a panic). A client set on only some paths to the call keeps the write,
// naming the line that sets it.
package migratesublazy

import (
	"context"
	"sync"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type manager interface{ GetClient() client.Client }

type Reconciler struct {
	client.Client
	dock  *dock
	pilot pilot
	buoy  *buoy
	tug   *tug
}

// dock is built lazily: if r.dock == nil { r.dock = ... }.
type dock struct {
	c client.Client
}

func (d *dock) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return d.c.Status().Update(ctx, w) // want `^handwritten status write to Widget`
}

func (r *Reconciler) Reconcile(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return client.IgnoreNotFound(err)
	}
	if r.dock == nil {
		r.dock = &dock{c: r.Client}
	}
	return r.dock.reconcile(ctx, w)
}

func (r *Reconciler) SetupWithManager(mgr manager) {
	r.dock = &dock{c: mgr.GetClient()}
	r.buoy = &buoy{c: mgr.GetClient()}
}

// pilot is a value field whose client is set after the read.
type pilot struct {
	c client.Client
}

func (p pilot) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 2
	return p.c.Status().Update(ctx, w) // want `^handwritten status write to Widget`
}

func (r *Reconciler) steer(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	r.pilot.c = r.Client
	return r.pilot.reconcile(ctx, w)
}

// buoy is set by a method of the reconciler called after the read.
type buoy struct {
	c client.Client
}

func (b *buoy) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 3
	return b.c.Status().Update(ctx, w) // want `^handwritten status write to Widget`
}

func (r *Reconciler) ensureBuoy() {
	if r.buoy == nil {
		r.buoy = &buoy{c: r.Client}
	}
}

func (r *Reconciler) float(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	r.ensureBuoy()
	return r.buoy.reconcile(ctx, w)
}

// tug is set lazily after the caller changes the object's status: the
// patcher, made after the lazy init, would not hold w as read.
type tug struct {
	c client.Client
}

func (t *tug) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 4
	return t.c.Status().Update(ctx, w) // want `^handwritten status write to Widget: .* \(not moved to the patcher: w is a parameter of reconcile: its call at line 119 names its client r\.tug\.c, set at line 117, and w is used at line 115 between its read and there`
}

func (r *Reconciler) tow(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = true
	if r.tug == nil {
		r.tug = &tug{c: r.Client}
	}
	return r.tug.reconcile(ctx, w)
}

// Harbour's sub-reconcilers are set where the code that sets them runs,
// not where it is written (review R of s102: -fix made the patcher
// before the client was set, and the project's test panicked).
type Harbour struct {
	client.Client
	ferry *ferry
	raft  *raft
	punt  *punt
	kayak *kayak
	canoe *canoe
	once  sync.Once
}

// ferry is set by a function literal, called after it is defined: the
// patcher is made after the call, not after the definition.
type ferry struct {
	c client.Client
}

func (f *ferry) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 5
	return f.c.Status().Update(ctx, w) // want `^handwritten status write to Widget`
}

func (h *Harbour) sail(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := h.Get(ctx, key, w); err != nil {
		return err
	}
	ensure := func() {
		if h.ferry == nil {
			h.ferry = &ferry{c: h.Client}
		}
	}
	ensure()
	return h.ferry.reconcile(ctx, w)
}

// raft is set two calls deep: prepare calls ensureRaft.
type raft struct {
	c client.Client
}

func (f *raft) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 6
	return f.c.Status().Update(ctx, w) // want `^handwritten status write to Widget`
}

func (h *Harbour) ensureRaft() {
	if h.raft == nil {
		h.raft = &raft{c: h.Client}
	}
}

func (h *Harbour) prepare() { h.ensureRaft() }

func (h *Harbour) drift(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := h.Get(ctx, key, w); err != nil {
		return err
	}
	h.prepare()
	return h.raft.reconcile(ctx, w)
}

// punt is set by a function literal handed to sync.Once's Do.
type punt struct {
	c client.Client
}

func (p *punt) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 7
	return p.c.Status().Update(ctx, w) // want `^handwritten status write to Widget`
}

func (h *Harbour) pole(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := h.Get(ctx, key, w); err != nil {
		return err
	}
	h.once.Do(func() { h.punt = &punt{c: h.Client} })
	return h.punt.reconcile(ctx, w)
}

// kayak sets its own client before its write: the client is its own to
// choose, and a patcher its caller made with h.kayak.c would hold nil.
type kayak struct {
	c   client.Client
	def client.Client
}

func (k *kayak) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 8
	k.bind()
	return k.c.Status().Update(ctx, w) // want `^handwritten status write to Widget: .* \(not moved to the patcher: w is a parameter of reconcile: it sets its client k\.c at line 215 \(a call that sets it at line 221\), before its write: `
}

func (k *kayak) bind() {
	if k.c == nil {
		k.c = k.def
	}
}

func (h *Harbour) paddle(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := h.Get(ctx, key, w); err != nil {
		return err
	}
	if h.kayak == nil {
		h.kayak = &kayak{def: h.Client}
	}
	return h.kayak.reconcile(ctx, w)
}

// canoe is set by a function value whose values are not all known (a
// local set again): the patcher's client may be set after the read, and
// the write stays, naming the call.
type canoe struct {
	c client.Client
}

func (c *canoe) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 9
	return c.c.Status().Update(ctx, w) // want `^handwritten status write to Widget: .* \(not moved to the patcher: w is a parameter of reconcile: its call at line 258 names its client h\.canoe\.c, which may be set after the read the patcher is made at: the call at line 257 may set it: ensure is set again at line 255`
}

func (h *Harbour) row(ctx context.Context, key client.ObjectKey, lazy bool) error {
	w := &v1.Widget{}
	if err := h.Get(ctx, key, w); err != nil {
		return err
	}
	ensure := func() {}
	if lazy {
		ensure = func() { h.canoe = &canoe{c: h.Client} }
	}
	ensure()
	return h.canoe.reconcile(ctx, w)
}

// Sloop's client is an unexported field no statement of the package
// assigns after the sloop is built (kueue's clustersReconciler.localClient,
// s103): a call through a function value whose values are not all known
// cannot set it, and the write moves.
type Sloop struct {
	local client.Client
	build func() error
}

func NewSloop(c client.Client, build func() error) *Sloop { return &Sloop{local: c, build: build} }

func (s *Sloop) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 4
	return s.local.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

func (s *Sloop) Reconcile(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := s.local.Get(ctx, key, w); err != nil {
		return err
	}
	build := func() error { return nil }
	if s.build != nil {
		build = s.build
	}
	if err := build(); err != nil {
		return err
	}
	return s.reconcile(ctx, w)
}

// Yawl's client is the same, but the package assigns it again: the
// function value may, and the write stays.
type Yawl struct {
	local client.Client
	build func() error
}

func (y *Yawl) Rebind(c client.Client) { y.local = c }

func (y *Yawl) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 5
	return y.local.Status().Update(ctx, w) // want `may be set after the read the patcher is made at: the call at line 315 may set it: build is set again at line 313`
}

func (y *Yawl) Reconcile(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := y.local.Get(ctx, key, w); err != nil {
		return err
	}
	build := func() error { return nil }
	if y.build != nil {
		build = y.build
	}
	if err := build(); err != nil {
		return err
	}
	return y.reconcile(ctx, w)
}

// Ketch sets its sub-reconciler after the call, in the loop around it:
// the next pass's call writes through the client set there, while a
// patcher made at the read, before the loop, holds the one before. The
// write stays, naming the line and the loop (s103: it moved).
type Ketch struct {
	client.Client
	yard  *yard
	slip  *slip
	spare client.Client
}

type yard struct {
	c client.Client
}

func (y *yard) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size++
	return y.c.Status().Update(ctx, w) // want `^handwritten status write to Widget: .* \(not moved to the patcher: w is a parameter of reconcile: its call at line 347 names its client k\.yard\.c, set at line 350 after the call, in the loop at line 346 around it: the next pass's call writes through it, and the patcher, made at the read before the loop, would hold the client as it was before\)$`
}

func (k *Ketch) haul(ctx context.Context, key client.ObjectKey, n int) error {
	w := &v1.Widget{}
	if err := k.Get(ctx, key, w); err != nil {
		return err
	}
	for range n {
		if err := k.yard.reconcile(ctx, w); err != nil {
			return err
		}
		k.yard = &yard{c: k.spare}
	}
	return nil
}

// slip is set after the call in a loop whose passes each read the object
// again: each pass's patcher, made at its read, holds the client its call
// uses. The write moves.
type slip struct {
	c client.Client
}

func (s *slip) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 2
	return s.c.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

func (k *Ketch) moor(ctx context.Context, keys []client.ObjectKey) error {
	for _, key := range keys {
		w := &v1.Widget{}
		if err := k.Get(ctx, key, w); err != nil {
			return err
		}
		if err := k.slip.reconcile(ctx, w); err != nil {
			return err
		}
		k.slip = &slip{c: k.spare}
	}
	return nil
}

// skiff sets its own client after its write, in the loop around it: its
// next pass writes through the client set there, not the one a patcher
// its caller made holds. The write stays, naming the line and the loop.
type skiff struct {
	c, alt client.Client
}

func (s *skiff) reconcile(ctx context.Context, w *v1.Widget, n int) error {
	for i := range n {
		w.Status.Size = i
		if err := s.c.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: .* \(not moved to the patcher: w is a parameter of reconcile: it sets its client s\.c at line 394 after its write, in the loop at line 389 around it: its next pass writes through it, not through the client a patcher its callers make holds\)$`
			return err
		}
		s.c = s.alt
	}
	return nil
}

func (k *Ketch) row(ctx context.Context, key client.ObjectKey, s *skiff) error {
	w := &v1.Widget{}
	if err := k.Get(ctx, key, w); err != nil {
		return err
	}
	return s.reconcile(ctx, w, 3)
}
