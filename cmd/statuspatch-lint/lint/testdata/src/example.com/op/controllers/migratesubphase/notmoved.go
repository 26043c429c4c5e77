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
	if err := r.Status().Update(ctx, w); err != nil { // want `\(not moved to the patcher: w is a parameter of twice: its caller at line 31: w is a parameter of noRead`
		return err
	}
	w.Status.Size = 2
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is a parameter of twice: its caller at line 31: w is a parameter of noRead`
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
