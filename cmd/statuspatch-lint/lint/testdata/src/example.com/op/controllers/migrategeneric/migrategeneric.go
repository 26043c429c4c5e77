// Package migrategeneric: status writes in helpers over objects of any
// kind (a type parameter constrained by client.Object, or client.Object
// itself). The helper takes the generic patcher its callers make with
// their kind's generated constructor; its write is Flush.
package migrategeneric

import (
	"context"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type ItemReconciler struct {
	client.Client
}

// patchStatus writes obj's status as a merge patch from base.
func patchStatus[T client.Object](ctx context.Context, c client.Client, obj, base T) error {
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `^handwritten status write to an object of unknown kind`
}

func (r *ItemReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	item := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, item); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !item.Status.Ready {
		base := item.DeepCopy()
		item.Status.Ready = true
		if err := patchStatus(ctx, r.Client, item, base); err != nil {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, nil
}

func resize(ctx context.Context, c client.Client, w *v1.Widget, size int) error {
	base := w.DeepCopy()
	w.Status.Size = size
	return patchStatus(ctx, c, w, base)
}

// Two calls in one function: two patchers, two names.
func twice(ctx context.Context, c client.Client, w *v1.Widget) error {
	b1 := w.DeepCopy()
	w.Status.Size = 1
	if err := patchStatus(ctx, c, w, b1); err != nil {
		return err
	}
	b2 := w.DeepCopy()
	w.Status.Size = 2
	return patchStatus(ctx, c, w, b2)
}

// updateStatus writes any object's status; the object is logged too.
func updateStatus(ctx context.Context, c client.Client, obj client.Object, why string) error {
	println(obj.GetName(), why)
	return c.Status().Update(ctx, obj) // want `^handwritten status write to Widget`
}

func count(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Size = len(w.Spec.Roles)
	return updateStatus(ctx, c, w, "count")
}

// A caller passes a Gadget, whose kind has no patcher: the helper stays.
func patchAny[T client.Object](ctx context.Context, c client.Client, obj, base T) error {
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `^handwritten status write to an object of unknown kind.*\(not moved to the patcher: its caller at line 85 passes g, whose kind has no generated patcher\)$`
}

func gadget(ctx context.Context, c client.Client, g *v1.Gadget, w *v1.Widget) error {
	wb := w.DeepCopy()
	w.Status.Ready = false
	if err := patchAny(ctx, c, w, wb); err != nil {
		return err
	}
	base := g.DeepCopy()
	g.Status.Phase = "Ready"
	return patchAny(ctx, c, g, base)
}

// PatchStatus is exported: its callers in other packages are not seen.
func PatchStatus[T client.Object](ctx context.Context, c client.Client, obj, base T) error { // want PatchStatus:"why"
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `^handwritten status write to an object of unknown kind.*\(not moved to the patcher: PatchStatus is exported, and its callers in other packages are not seen: make it take the patcher \(\*patcher\.Patcher\[T\], or patchers\.StatusPatcher from patchers\.For\) by hand\)$`
}

func exported(ctx context.Context, c client.Client, w *v1.Widget) error {
	base := w.DeepCopy()
	w.Status.Ready = true
	return PatchStatus(ctx, c, w, base)
}

// Both bases taken before the first write: two patchers alive at once,
// the second Flush a Conflict. The helper stays.
func patchEarly[T client.Object](ctx context.Context, c client.Client, obj, base T) error {
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `^handwritten status write to an object of unknown kind.*\(not moved to the patcher: its caller at line 113 calls patchEarly with w at line 109 too, after line 107: the two calls' patchers would be alive at once, and the second Flush would conflict \(take the second base after the first call\)\)$`
}

func early(ctx context.Context, c client.Client, w *v1.Widget) error {
	b1 := w.DeepCopy()
	b2 := w.DeepCopy()
	w.Status.Size = 1
	if err := patchEarly(ctx, c, w, b1); err != nil {
		return err
	}
	w.Status.Ready = true
	return patchEarly(ctx, c, w, b2)
}

// A finalizer added between the base and the call: Flush would refuse
// it (ErrNonStatusChange). The helper stays.
func patchFinalized[T client.Object](ctx context.Context, c client.Client, obj, base T) error {
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `^handwritten status write to an object of unknown kind.*\(not moved to the patcher: its caller at line 126 passes w, and w\.Finalizers is changed at line 124: the patcher writes only the status \(Flush returns patcher\.ErrNonStatusChange\)`
}

func finalizer(ctx context.Context, c client.Client, w *v1.Widget) error {
	base := w.DeepCopy()
	w.Finalizers = append(w.Finalizers, "example.com/cleanup")
	w.Status.Ready = true
	if err := patchFinalized(ctx, c, w, base); err != nil {
		return err
	}
	return c.Update(ctx, w)
}

// The caller writes the status itself after the Get: the call passes
// the patcher of that write, one patcher (at 26aa819 two, alive at once:
// the helper stayed).
func updateAny[T client.Object](ctx context.Context, c client.Client, obj T) error {
	return c.Status().Update(ctx, obj) // want `^handwritten status write to an object of unknown kind: use the generated status patcher of the object's concrete type$`
}

func both(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Size = 1
	if err := c.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget`
		return err
	}
	w.Status.Ready = true
	return updateAny(ctx, c, w)
}

// A label set after the Get, saved by the Update after: Flush would
// refuse it. The helper stays.
func updateLabeled[T client.Object](ctx context.Context, c client.Client, obj T) error {
	return c.Status().Update(ctx, obj) // want `^handwritten status write to an object of unknown kind.*\(not moved to the patcher: its caller at line 165 passes w, and w\.Labels is changed at line 163: the patcher writes only the status \(Flush returns patcher\.ErrNonStatusChange\)`
}

func label(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	w.Labels = map[string]string{"seen": "yes"}
	w.Status.Ready = true
	if err := updateLabeled(ctx, c, w); err != nil {
		return err
	}
	return c.Update(ctx, w)
}

// The base taken, then the object read again: the patcher's base would
// be the object before that read. The helper stays.
func patchReread[T client.Object](ctx context.Context, c client.Client, obj, base T) error {
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `^handwritten status write to an object of unknown kind.*\(not moved to the patcher: its caller at line 183 reads w again with Get at line 179, after line 178: the patcher's base would be the object before that read \(take the base after it\)\)$`
}

func reread(ctx context.Context, c client.Client, key client.ObjectKey, w *v1.Widget) error {
	base := w.DeepCopy()
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Size = 4
	return patchReread(ctx, c, w, base)
}

// counter hands out tokens.
type counter struct{ n int64 }

func (c *counter) Add(d int64) int64 { c.n += d; return c.n }

var tokens counter

// A caller deciding from the status read with a token handed out: Retry
// would hand out one per attempt, and the call's Retry has no place for
// the value made once. The helper stays, naming the call.
func patchToken[T client.Object](ctx context.Context, c client.Client, obj, base T) error {
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `^handwritten status write to an object of unknown kind.*\(not moved to the patcher: its caller at line 209 passes w: its decision calls tokens.Add at line 207, which Retry would call again on each attempt`
}

func (r *ItemReconciler) token(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	base := w.DeepCopy()
	if w.Status.Size == 0 {
		w.Status.Size = int(tokens.Add(1))
	}
	return patchToken(ctx, r.Client, w, base)
}
