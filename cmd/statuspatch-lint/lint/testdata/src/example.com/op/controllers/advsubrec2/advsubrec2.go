package advsubrec2

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
}

type harbour struct {
	c client.Client
}

func (h *harbour) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = w.Spec.Size
	return h.c.Status().Update(ctx, w) // want `not moved to the patcher: w is a parameter of reconcile: its call at line 34 passes &items\[i\], not a variable\)$`
}

// Called with an object read with Get, and with a list's item.
func (r *Reconciler) read(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return (&harbour{c: r.Client}).reconcile(ctx, w)
}

func (r *Reconciler) items(ctx context.Context, items []v1.Widget) error {
	for i := range items {
		if err := (&harbour{c: r.Client}).reconcile(ctx, &items[i]); err != nil {
			return err
		}
	}
	return nil
}

type cove struct {
	c client.Client
}

func (h cove) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 2
	return h.c.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// A value receiver built in its call.
func (r *Reconciler) byValue(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return cove{c: r.Client}.reconcile(ctx, w)
}

type inlet struct {
	c client.Client
}

func (h *inlet) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 4
	return h.c.Status().Update(ctx, w) // want `not moved to the patcher: w is a parameter of reconcile: it is used at line 74 other than in a call\)$`
}

// A method value of the literal.
func (r *Reconciler) methodValue(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	f := (&inlet{c: r.Client}).reconcile
	return f(ctx, w)
}

type fjord struct {
	c client.Client
}

func (h *fjord) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 5
	if err := h.c.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return err
	}
	w.Labels = map[string]string{"done": "true"}
	return h.c.Update(ctx, w)
}

// The sub-reconciler changes a label after its status write.
func (r *Reconciler) labelAfter(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return (&fjord{c: r.Client}).reconcile(ctx, w)
}
