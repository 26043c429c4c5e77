package migrate

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Writes with a field owner (issue 72): a lone client.FieldOwner goes to
// the patcher as patcher.WithFieldOwner, which its merge Flush sends; any
// other option keeps the write.

const ownerName client.FieldOwner = "op-controller"

type OwnerReconciler struct {
	client.Client
	owner string
}

// Moved: the locked patch of openstack-hypervisor-operator's eviction
// controller, with its field owner.
func (r *OwnerReconciler) locked(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	base := w.DeepCopy()
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}), client.FieldOwner(r.owner)) // want `^handwritten status write to Widget`
}

// Moved: an Update with a typed field owner.
func (r *OwnerReconciler) update(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Size++
	return r.Status().Update(ctx, w, ownerName) // want `^handwritten status write to Widget`
}

// Moved together: two writes naming one field owner.
func (r *OwnerReconciler) twice(ctx context.Context, w *v1.Widget) error {
	base := w.DeepCopy()
	w.Status.Ready = true
	if err := r.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}), client.FieldOwner("op")); err != nil { // want `^handwritten status write to Widget`
		return err
	}
	w.Status.Size++
	return r.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}), client.FieldOwner("op")) // want `^handwritten status write to Widget`
}

// Not moved: options a merge Flush does not take.

func (r *OwnerReconciler) force(ctx context.Context, w *v1.Widget) error {
	base := w.DeepCopy()
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}), client.ForceOwnership) // want `\(not moved to the patcher: the write has the option client.ForceOwnership: Flush takes no write options, only a field owner \(client.FieldOwner, given to the patcher as patcher.WithFieldOwner\)\)$`
}

func (r *OwnerReconciler) twoOwners(ctx context.Context, w *v1.Widget) error {
	base := w.DeepCopy()
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}), client.FieldOwner("a"), client.FieldOwner("b")) // want `\(not moved to the patcher: the write has several options: Flush takes no write options, only a field owner \(client.FieldOwner, given to the patcher as patcher.WithFieldOwner\)\)$`
}

func (r *OwnerReconciler) spread(ctx context.Context, w *v1.Widget, opts []client.SubResourcePatchOption) error {
	base := w.DeepCopy()
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}), opts...) // want `\(not moved to the patcher: the write's options are spread from a slice \(opts...\): Flush takes no write options`
}

// Not moved: one patcher sends one field owner.
func (r *OwnerReconciler) otherOwners(ctx context.Context, w *v1.Widget) error {
	base := w.DeepCopy()
	w.Status.Ready = true
	if err := r.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}), client.FieldOwner("a")); err != nil { // want `\(not moved to the patcher: the status write of w at line 81 has the field owner "b", this one "a": the writes of w in this function move together, and a patcher sends one field owner \(patcher.WithFieldOwner\)\)$`
		return err
	}
	return r.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}), client.FieldOwner("b")) // want `\(not moved to the patcher: the status write of w at line 78 has the field owner "a", this one "b": `
}

func (r *OwnerReconciler) ownerAndNone(ctx context.Context, w *v1.Widget) error {
	base := w.DeepCopy()
	w.Status.Ready = true
	if err := r.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}), client.FieldOwner("a")); err != nil { // want `\(not moved to the patcher: the status write of w at line 90 has the field owner none, this one "a": `
		return err
	}
	return r.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})) // want `\(not moved to the patcher: the status write of w at line 87 has the field owner "a", this one none: `
}

// Not moved: the owner is computed after the read the patcher is made at.
func (r *OwnerReconciler) lateOwner(ctx context.Context, w *v1.Widget) error {
	base := w.DeepCopy()
	w.Status.Ready = true
	statusOwner := r.owner + "-status"
	return r.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}), client.FieldOwner(statusOwner)) // want `\(not moved to the patcher: the field owner statusOwner uses statusOwner, declared after the read the patcher is made at\)$`
}
