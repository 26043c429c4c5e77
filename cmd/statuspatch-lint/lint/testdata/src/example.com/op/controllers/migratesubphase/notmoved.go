package migratesubphase

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The spec changes between the writes: none moves, each naming where.
func (r *Reconciler) specBetween(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return r.grow(ctx, w)
}

func (r *Reconciler) grow(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `\(not moved to the patcher: w is a parameter of grow: w.Spec is changed at line 24: the patcher writes only the status \(Flush returns patcher.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
		return err
	}
	w.Spec.Size = 2
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is a parameter of grow: w.Spec is changed at line 24: the patcher writes only the status`
}

// A caller with no Get of the object cannot make the patcher: none of
// the helper's writes moves.
func (r *Reconciler) noRead(ctx context.Context, w *v1.Widget) error {
	return r.twice(ctx, w)
}

func (r *Reconciler) twice(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `\(not moved to the patcher: w is a parameter of twice: its caller at line 31 hands on w, a parameter of noRead, and no function of the package calls noRead: none reads w to make the patcher\)$`
		return err
	}
	w.Status.Size = 2
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is a parameter of twice: its caller at line 31 hands on w, a parameter of noRead, and no function of the package calls noRead: none reads w to make the patcher\)$`
}

// One of the writes is a patch -fix does not move: none does.
func (r *Reconciler) rawCaller(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return r.withRaw(ctx, w)
}

func (r *Reconciler) withRaw(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `\(not moved to the patcher: w is a parameter of withRaw: its status write at line 57 cannot be moved \(.*\), and the writes of w in withRaw move together\)$`
		return err
	}
	return r.Status().Patch(ctx, w, client.RawPatch("application/merge-patch+json", []byte(`{}`))) // want `\(not moved to the patcher: `
}

// A helper taking its base, whose caller's base is not a copy of the
// object it passes: the reason names what the base is and where.
func (r *Reconciler) copyOther(ctx context.Context, key client.ObjectKey, other *v1.Widget) error { // want copyOther:"statusOnly\\[2\\]"
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	base := other.DeepCopy()
	w.Status.Ready = true
	return r.patchFrom(ctx, w, base)
}

func (r *Reconciler) patchFrom(ctx context.Context, w, base *v1.Widget) error {
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `\(not moved to the patcher: w is a parameter of patchFrom: its caller at line 69: the base base is other.DeepCopy\(\), taken in Reconciler.copyOther at line 67: -fix makes the patcher where base := w.DeepCopy\(\) is taken in the caller\)$`
}

// One whose caller's base is set after its declaration, under an if.
func (r *Reconciler) setLater(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	var base *v1.Widget
	if w.Status.Size > 0 {
		base = w.DeepCopy()
	}
	w.Status.Ready = true
	return r.patchLater(ctx, w, base)
}

func (r *Reconciler) patchLater(ctx context.Context, w, base *v1.Widget) error {
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `\(not moved to the patcher: w is a parameter of patchLater: its caller at line 87: the base base is declared at line 82 without a value and set to w.DeepCopy\(\) at line 84, inside the if at line 83: -fix moves a base defined with its value \(base := w.DeepCopy\(\)\)\)$`
}

// A helper given its patch, whose caller's patch is of another object.
func (r *Reconciler) patchOther(ctx context.Context, key client.ObjectKey, other *v1.Widget) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	patch := client.MergeFrom(other)
	w.Status.Ready = true
	return r.withPatch(ctx, w, patch)
}

func (r *Reconciler) withPatch(ctx context.Context, w *v1.Widget, patch client.Patch) error {
	return r.Status().Patch(ctx, w, patch) // want `\(not moved to the patcher: w is a parameter of withPatch: its caller at line 102: the patch patch is client.MergeFrom\(other\), taken in Reconciler.patchOther at line 100: -fix makes the patcher where patch := client.MergeFrom\(w.DeepCopy\(\)\) is taken in the caller\)$`
}

// An alias of the parameter whose spec changes between the writes: none
// moves, each naming the change through the alias.
func (r *Reconciler) aliasSpecCaller(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return r.aliasSpec(ctx, w)
}

func (r *Reconciler) aliasSpec(ctx context.Context, w *v1.Widget) error {
	m := w
	m.Status.Ready = true
	if err := r.Status().Update(ctx, m); err != nil { // want `\(not moved to the patcher: w is a parameter of aliasSpec: m.Spec is changed at line 125: `
		return err
	}
	m.Spec.Size = 3
	return r.Status().Update(ctx, m) // want `\(not moved to the patcher: w is a parameter of aliasSpec: m.Spec is changed at line 125: `
}
