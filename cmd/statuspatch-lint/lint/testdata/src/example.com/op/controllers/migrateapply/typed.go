package migrateapply

import (
	"context"

	v1 "example.com/op/api/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Typed: controller-runtime v0.22's status apply (its status writer has no
// Apply), a new typed object named after the fetched one; moved onto apply
// mode, its status given to ApplyStatus.
func (r *WidgetReconciler) Typed(ctx context.Context, req ctrl.Request) error {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return err
	}
	applied := &v1.Widget{ObjectMeta: metav1.ObjectMeta{Name: w.Name, Namespace: w.Namespace}}
	applied.Status.Ready = w.Spec.Size > 0
	return r.Status().Patch(ctx, applied, client.Apply, client.FieldOwner(owner), client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(owner\)$`
}

// TypedKey: the literal named by the request's key, a value applied by
// address; moved.
func (r *WidgetReconciler) TypedKey(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	applied := v1.Widget{ObjectMeta: metav1.ObjectMeta{Name: req.Name, Namespace: req.Namespace}, Status: v1.WidgetStatus{Size: w.Spec.Size}}
	return r.Status().Patch(ctx, &applied, client.Apply, typedOwner, client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(string\(typedOwner\)\)$`
}

// TypedFetched: the fetched object itself applied (its resourceVersion
// and managedFields go with it); stays.
func (r *WidgetReconciler) TypedFetched(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.Apply, client.FieldOwner(owner), client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(owner\) \(not moved to the patcher: w is the object read with Get, applied whole \(its resourceVersion and managedFields with it\): -fix moves a server-side apply of the typed object \(client.Apply\) when`
}

// TypedNoName: a literal that names no object; stays.
func (r *WidgetReconciler) TypedNoName(ctx context.Context, req ctrl.Request, name string) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	applied := &v1.Widget{}
	applied.Name, applied.Namespace = name, req.Namespace
	return r.Status().Patch(ctx, applied, client.Apply, client.FieldOwner(owner), client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(owner\) \(not moved to the patcher: the new Widget applied is given no ObjectMeta Name in its literal: -fix moves`
}
