package advsubrec

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
	Other client.Client
}

type harbour struct {
	c client.Client
}

func (h *harbour) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = w.Spec.Size
	return h.c.Status().Update(ctx, w) // want `not moved to the patcher: w is a parameter of reconcile: its call at line 34 writes through r\.Other, not through r, as its own write of w at line 31 does; one patcher would make both writes through one client\)$`
}

// The literal takes another client than the caller's own writes.
func (r *Reconciler) otherClient(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return err
	}
	return (&harbour{c: r.Other}).reconcile(ctx, w)
}

type cove struct {
	c client.Client
}

func (h *cove) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 7
	return h.c.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// Called twice, after the caller's own write.
func (r *Reconciler) twice(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if err := (&cove{c: r.Client}).reconcile(ctx, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return (&cove{c: r.Client}).reconcile(ctx, w)
}

type inlet struct {
	c client.Client
}

func (h *inlet) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 8
	return h.c.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// A value object passed by its address.
func (r *Reconciler) value(ctx context.Context, key client.ObjectKey) error {
	var w v1.Widget
	if err := r.Get(ctx, key, &w); err != nil {
		return err
	}
	return (&inlet{c: r.Client}).reconcile(ctx, &w)
}

type fjord struct {
	c client.Client
}

func (h *fjord) reconcile(ctx context.Context, w *v1.Widget) error {
	if err := h.c.Get(ctx, client.ObjectKeyFromObject(w), w); err != nil {
		return err
	}
	w.Status.Size = 9
	return h.c.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// The sub-reconciler reads the object again itself.
func (r *Reconciler) reread(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return (&fjord{c: r.Client}).reconcile(ctx, w)
}

type sound struct {
	c client.Client
}

func (h *sound) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 10
	return h.c.Status().Update(ctx, w) // want `not moved to the patcher: w is a parameter of reconcile: its call at line 120 names its client c, assigned at line 119, after the read the patcher is made at\)$`
}

// A local client variable, then reassigned before the call: named by
// the reassignment, whose client the call names.
func (r *Reconciler) localClient(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	c := r.Client
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return err
	}
	c = r.Other
	return (&sound{c: c}).reconcile(ctx, w)
}

type bay struct {
	c client.Client
	w *v1.Widget
}

func (h *bay) reconcile(ctx context.Context) error {
	h.w.Status.Size = 11
	return h.c.Status().Update(ctx, h.w) // want `not moved to the patcher: the object h\.w is not a variable\)$`
}

// The object held in the literal, not passed.
func (r *Reconciler) inLiteral(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return (&bay{c: r.Client, w: w}).reconcile(ctx)
}

type shoal struct {
	c client.Client
}

func (h *shoal) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 12
	return h.c.Status().Update(ctx, w) // want `not moved to the patcher: w is a parameter of reconcile: its call at line 161 names its client c, assigned at line 160, after the read the patcher is made at\)$`
}

// A local client declared before the read, reassigned after it: the
// patcher made at the read would hold the client declared, the call
// names the one assigned.
func (r *Reconciler) clientReassigned(ctx context.Context, key client.ObjectKey) error {
	c := r.Client
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	c = r.Other
	return (&shoal{c: c}).reconcile(ctx, w)
}
