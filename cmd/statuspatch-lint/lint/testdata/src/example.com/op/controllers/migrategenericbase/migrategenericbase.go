// Package migrategenericbase: helpers over any kind that take their base
// themselves and hand the object to a function that changes it. The base
// becomes the generic patcher of the object's kind, patchers.ForType,
// when every caller passes a kind with a generated patcher; the helper's
// signature and its callers stay.
package migrategenericbase

import (
	"context"
	"sync/atomic"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
}

// patchStatus is the newcomer's helper (issue 80, ship_controller.go:82).
func patchStatus[T client.Object](ctx context.Context, c client.Client, obj T, mutate func(T)) error {
	base := obj.DeepCopyObject().(T)
	mutate(obj)
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `^handwritten status write to an object of unknown kind`
}

func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	err := patchStatus(ctx, r.Client, w, func(w *v1.Widget) {
		w.Status.Size = w.Spec.Size
	})
	return ctrl.Result{}, err
}

// lockedStatus is the same helper after a -fix run that only locked it.
func lockedStatus[T client.Object](ctx context.Context, c client.Client, obj T, mutate func(T) error) error {
	base := obj.DeepCopyObject().(T)
	if err := mutate(obj); err != nil {
		return err
	}
	return c.Status().Patch(ctx, obj, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})) // want `^handwritten status write to an object of unknown kind`
}

func (r *Reconciler) ready(ctx context.Context, w *v1.Widget) error {
	return lockedStatus(ctx, r.Client, w, func(w *v1.Widget) error {
		w.Status.Ready = true
		return nil
	})
}

// A caller passes a Gadget, whose kind has no generated patcher: the
// helper stays, naming the call and the kind.
func anyStatus[T client.Object](ctx context.Context, c client.Client, obj T, mutate func(T)) error {
	base := obj.DeepCopyObject().(T)
	mutate(obj)
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `\(not moved to the patcher: its caller at line 67 passes g, a Gadget, whose kind has no generated patcher\)$`
}

func (r *Reconciler) both(ctx context.Context, w *v1.Widget, g *v1.Gadget) error {
	if err := anyStatus(ctx, r.Client, w, func(w *v1.Widget) { w.Status.Ready = true }); err != nil {
		return err
	}
	return anyStatus(ctx, r.Client, g, func(g *v1.Gadget) { g.Status.Phase = "Ready" })
}

// Exported: its callers in other packages are not seen.
func PatchStatus[T client.Object](ctx context.Context, c client.Client, obj T, mutate func(T)) error { // want PatchStatus:"why"
	base := obj.DeepCopyObject().(T)
	mutate(obj)
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `\(not moved to the patcher: PatchStatus is exported, and its callers in other packages are not seen: make its base patchers.ForType\(c, obj\) and its write Flush by hand\)$`
}

// setStatus takes a client.Object: For's StatusPatcher, which has Flush.
func setStatus(ctx context.Context, c client.Client, obj client.Object, mutate func(client.Object)) error {
	base := obj.DeepCopyObject().(client.Object)
	mutate(obj)
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `^handwritten status write to`
}

func (r *Reconciler) label(ctx context.Context, w *v1.Widget) error {
	return setStatus(ctx, r.Client, w, func(o client.Object) { o.(*v1.Widget).Status.Ready = true })
}

// err is declared after the base in its block: the patcher's error is
// named apart, so that := still declares it.
func checkedStatus[T client.Object](ctx context.Context, c client.Client, obj T, mutate func(T) error) error {
	base := obj.DeepCopyObject().(T)
	err := mutate(obj)
	if err != nil {
		return err
	}
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `^handwritten status write to an object of unknown kind`
}

func (r *Reconciler) checked(ctx context.Context, w *v1.Widget) error {
	return checkedStatus(ctx, r.Client, w, func(w *v1.Widget) error {
		w.Status.Size = 7
		return nil
	})
}

var tokens atomic.Int64

// The newcomer's helper whose caller decides from the status it read
// (issue 80, item 2): mutate is called in the patcher's Retry, so a
// conflict reads the object again and the caller decides again (at
// 85b631d a Flush, refused under a manager, the next reconcile deciding
// twice).
func decideStatus[T client.Object](ctx context.Context, c client.Client, obj T, mutate func(T)) error {
	base := obj.DeepCopyObject().(T)
	mutate(obj)
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `^handwritten status write to an object of unknown kind`
}

func (r *Reconciler) decided(ctx context.Context, w *v1.Widget) error {
	return decideStatus(ctx, r.Client, w, func(w *v1.Widget) {
		if !w.Status.Ready {
			w.Status.Ready = true
		}
	})
}

// A caller's literal hands out a token: Retry would hand out one per
// attempt. The token is made once, a sync.OnceValue declared before the
// call, and the helper's mutate the patcher's Retry (issue 80's Cargo).
func tokenStatus[T client.Object](ctx context.Context, c client.Client, obj T, mutate func(T)) error {
	base := obj.DeepCopyObject().(T)
	mutate(obj)
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `^handwritten status write to an object of unknown kind`
}

func (r *Reconciler) tokened(ctx context.Context, w *v1.Widget) error {
	return tokenStatus(ctx, r.Client, w, func(w *v1.Widget) {
		if w.Status.Size == 0 {
			w.Status.Size = int(tokens.Add(1))
		}
	})
}

// The token's call is given the literal's object: made once it would
// not see the status a conflict reads again. Stays, naming the call.
func sizedStatus[T client.Object](ctx context.Context, c client.Client, obj T, mutate func(T)) error {
	base := obj.DeepCopyObject().(T)
	mutate(obj)
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `\(not moved to the patcher: its caller at line 153 passes a function literal Retry would call again on each attempt: the call tokens\.Add at line 155 would run again on each attempt \(Add is of sync/atomic, which changes its receiver on each call\), and it is given w, whose status a conflict reads again`
}

func (r *Reconciler) sized(ctx context.Context, w *v1.Widget) error {
	return sizedStatus(ctx, r.Client, w, func(w *v1.Widget) {
		if w.Status.Size == 0 {
			w.Status.Size = int(tokens.Add(int64(w.Spec.Size)))
		}
	})
}
