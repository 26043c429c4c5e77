package migrateacross

import (
	"context"

	v1 "example.com/op/api/v1"
	"example.com/op/rolesutil"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The roles passed to a function of another package that copies each by
// range value into a literal only json.Marshal reads (lws's
// ComputeRevision, by rolesutil's fact): moved.
func (r *Reconciler) revision(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Size = len(rolesutil.ComputeRevision(w.Spec.Roles)) + rolesutil.Renamed(w.Spec.Roles)
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// The roles passed to one that writes through the range value: stays.
func (r *Reconciler) stamped(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	rolesutil.Stamp(w.Spec.Roles)
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w.Spec may be changed at line 29: w.Spec.Roles, a reference into the object, is passed to rolesutil.Stamp, and the patcher writes only the status`
}

// The roles passed to ones that hand the literal to a function value or
// store it: stays.
func (r *Reconciler) handed(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	rolesutil.Hand(w.Spec.Roles)
	rolesutil.Keep(w.Spec.Roles)
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w.Spec may be changed at line 41: w.Spec.Roles, a reference into the object, is passed to rolesutil.Hand, and the patcher writes only the status`
}
