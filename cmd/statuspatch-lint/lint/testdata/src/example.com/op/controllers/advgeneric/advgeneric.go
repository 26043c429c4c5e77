package advgeneric

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
}

// Called with T inferred as client.Object: ForType's assertion to
// *patcher.Patcher[client.Object] fails for every kind.
func ifaceStatus[T client.Object](ctx context.Context, c client.Client, obj T, mutate func(T)) error {
	base := obj.DeepCopyObject().(T)
	mutate(obj)
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `not moved to the patcher: its caller at line 23 passes o as client\.Object, an interface: ForType's patcher would be a Patcher of that interface, which no generated patcher is\)$`
}

func (r *Reconciler) iface(ctx context.Context, o client.Object) error {
	return ifaceStatus(ctx, r.Client, o, func(client.Object) {})
}

// Instantiated explicitly with client.Object on a Widget.
func explicitStatus[T client.Object](ctx context.Context, c client.Client, obj T, mutate func(T)) error {
	base := obj.DeepCopyObject().(T)
	mutate(obj)
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `not moved to the patcher: its caller at line 34 passes w as client\.Object, an interface: ForType's patcher would be a Patcher of that interface, which no generated patcher is\)$`
}

func (r *Reconciler) explicit(ctx context.Context, w *v1.Widget) error {
	return explicitStatus[client.Object](ctx, r.Client, w, func(o client.Object) { o.(*v1.Widget).Status.Ready = true })
}

// A client.Object helper called with a client.Object whose kind varies.
func setStatus(ctx context.Context, c client.Client, obj client.Object, mutate func(client.Object)) error {
	base := obj.DeepCopyObject().(client.Object)
	mutate(obj)
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `not moved to the patcher: its caller at line 49 passes o as client\.Object, an interface: which kind it holds, and so whether patchers\.For has its patcher, is not seen\)$`
}

func (r *Reconciler) varies(ctx context.Context, w *v1.Widget, g *v1.Gadget, gadget bool) error {
	var o client.Object = w
	if gadget {
		o = g
	}
	return setStatus(ctx, r.Client, o, func(client.Object) {})
}

// The object reassigned between the base and the write.
func swapStatus[T client.Object](ctx context.Context, c client.Client, obj, other T, mutate func(T)) error {
	base := obj.DeepCopyObject().(T)
	obj = other
	mutate(obj)
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `not moved to the patcher: obj is assigned at line 55\)$`
}

func (r *Reconciler) swap(ctx context.Context, w, x *v1.Widget) error {
	return swapStatus(ctx, r.Client, w, x, func(w *v1.Widget) { w.Status.Ready = true })
}

// Instantiated explicitly with the Widget's own type: ForType's patcher.
func typedStatus[T client.Object](ctx context.Context, c client.Client, obj T, mutate func(T)) error {
	base := obj.DeepCopyObject().(T)
	mutate(obj)
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `^handwritten status write to an object of unknown kind: use the generated status patcher of the object's concrete type$`
}

func (r *Reconciler) typed(ctx context.Context, w *v1.Widget) error {
	return typedStatus[*v1.Widget](ctx, r.Client, w, func(w *v1.Widget) { w.Status.Ready = true })
}
