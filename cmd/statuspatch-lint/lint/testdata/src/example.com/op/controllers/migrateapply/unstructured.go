package migrateapply

import (
	"context"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Unstructured: the status applied from an unstructured object named
// after the fetched one (controller-runtime's Status().Apply without
// generated apply configurations); moved onto apply mode, u's status given
// to ApplyStatus.
func (r *WidgetReconciler) Unstructured(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var widget v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	u := &unstructured.Unstructured{}
	u.SetAPIVersion(v1.GroupVersion.String())
	u.SetKind("Widget")
	u.SetName(widget.Name)
	u.SetNamespace(widget.Namespace)
	if err := unstructured.SetNestedField(u.Object, "Ready", "status", "phase"); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner("widget"), client.ForceOwnership); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\("widget"\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// UnstructuredPatch: the older Patch with client.Apply, the kind set by
// SetGroupVersionKind, a status field removed; moved.
func (r *WidgetReconciler) UnstructuredPatch(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(v1.GroupVersion.WithKind("Widget"))
	u.SetName(w.GetName())
	u.SetNamespace(w.GetNamespace())
	_ = unstructured.SetNestedStringSlice(u.Object, []string{"a"}, "status", "roles")
	unstructured.RemoveNestedField(u.Object, "status", "message")
	return r.Status().Patch(ctx, u, client.Apply, typedOwner, client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(string\(typedOwner\)\)$`
}

// UnstructuredSpec: a spec field applied beside the status; stays.
func (r *WidgetReconciler) UnstructuredSpec(ctx context.Context, req ctrl.Request) error {
	var widget v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
		return err
	}
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("example.com/v1")
	u.SetKind("Widget")
	u.SetName(widget.Name)
	u.SetNamespace(widget.Namespace)
	_ = unstructured.SetNestedField(u.Object, "Ready", "status", "phase")
	_ = unstructured.SetNestedField(u.Object, int64(3), "spec", "size")
	return r.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner(owner), client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(owner\) \(not moved to the patcher: unstructured.SetNestedField at line \d+ sets a field outside the status \("spec"\): -fix moves an unstructured status apply .*patcher.WithWriteMode\(patcher.WriteApply\).*ApplyStatus`
}

// UnstructuredOther: u named by a name that is not the fetched object's;
// stays.
func (r *WidgetReconciler) UnstructuredOther(ctx context.Context, req ctrl.Request, name string) error {
	var widget v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
		return err
	}
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("example.com/v1")
	u.SetKind("Widget")
	u.SetName(name)
	u.SetNamespace(widget.Namespace)
	_ = unstructured.SetNestedField(u.Object, "Ready", "status", "phase")
	return r.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner(owner), client.ForceOwnership) // want `^handwritten status write to Widget: .* \(not moved to the patcher: u's name and namespace are not one object's: -fix moves an unstructured status apply`
}

// UnstructuredHanded: u handed to a function before the write; stays.
func (r *WidgetReconciler) UnstructuredHanded(ctx context.Context, req ctrl.Request) error {
	var widget v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
		return err
	}
	u := &unstructured.Unstructured{}
	u.SetAPIVersion(v1.GroupVersion.String())
	u.SetKind("Widget")
	u.SetName(widget.Name)
	u.SetNamespace(widget.Namespace)
	_ = unstructured.SetNestedField(u.Object, "Ready", "status", "phase")
	decorate(u)
	return r.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner(owner), client.ForceOwnership) // want `^handwritten status write to Widget: .* \(not moved to the patcher: u is handed on at line \d+: -fix moves an unstructured status apply`
}

func decorate(u *unstructured.Unstructured) { u.SetFinalizers([]string{"x"}) }
