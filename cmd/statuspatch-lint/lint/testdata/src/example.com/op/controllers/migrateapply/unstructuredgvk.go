package migrateapply

import (
	"context"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// widgetGroup is the API's group, a constant.
const widgetGroup = "example.com"

// UnstructuredGVKLiteral: the kind set by a schema.GroupVersionKind
// literal of constants; moved.
func (r *WidgetReconciler) UnstructuredGVKLiteral(ctx context.Context, key client.ObjectKey) error {
	var widget v1.Widget
	if err := r.Get(ctx, key, &widget); err != nil {
		return err
	}
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(schema.GroupVersionKind{Group: widgetGroup, Version: "v1", Kind: "Widget"})
	u.SetName(widget.Name)
	u.SetNamespace(widget.Namespace)
	_ = unstructured.SetNestedField(u.Object, "Ready", "status", "phase")
	return r.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner(owner), client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(owner\)$`
}

// UnstructuredGVLocal: a local schema.GroupVersion literal's WithKind;
// moved.
func (r *WidgetReconciler) UnstructuredGVLocal(ctx context.Context, key client.ObjectKey) error {
	var widget v1.Widget
	if err := r.Get(ctx, key, &widget); err != nil {
		return err
	}
	gv := schema.GroupVersion{Group: widgetGroup, Version: "v1"}
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gv.WithKind("Widget"))
	u.SetName(widget.Name)
	u.SetNamespace(widget.Namespace)
	_ = unstructured.SetNestedField(u.Object, "Ready", "status", "phase")
	return r.Status().Patch(ctx, u, client.Apply, client.FieldOwner(owner), client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(owner\)$`
}

// UnstructuredGVInline: a schema.GroupVersion literal's WithKind, inline;
// moved.
func (r *WidgetReconciler) UnstructuredGVInline(ctx context.Context, key client.ObjectKey) error {
	var widget v1.Widget
	if err := r.Get(ctx, key, &widget); err != nil {
		return err
	}
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(schema.GroupVersion{Group: "example.com", Version: "v1"}.WithKind("Widget"))
	u.SetName(widget.Name)
	u.SetNamespace(widget.Namespace)
	_ = unstructured.SetNestedField(u.Object, "Ready", "status", "phase")
	return r.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner(owner), client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(owner\)$`
}

// UnstructuredGVKVariable: the literal's kind a variable; stays, saying
// why.
func (r *WidgetReconciler) UnstructuredGVKVariable(ctx context.Context, key client.ObjectKey, kind string) error {
	var widget v1.Widget
	if err := r.Get(ctx, key, &widget); err != nil {
		return err
	}
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(schema.GroupVersionKind{Group: widgetGroup, Version: "v1", Kind: kind})
	u.SetName(widget.Name)
	u.SetNamespace(widget.Namespace)
	_ = unstructured.SetNestedField(u.Object, "Ready", "status", "phase")
	return r.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner(owner), client.ForceOwnership) // want `^handwritten status write to an object of unknown kind: .*\(not moved to the patcher: u's group, version and kind are not constants \(schema.GroupVersionKind\{\.\.\.\} or a GroupVersion's WithKind\(constant\)\): -fix moves an unstructured status apply`
}

// UnstructuredGVChanged: the local GroupVersion changed before WithKind;
// stays.
func (r *WidgetReconciler) UnstructuredGVChanged(ctx context.Context, key client.ObjectKey, group string) error {
	var widget v1.Widget
	if err := r.Get(ctx, key, &widget); err != nil {
		return err
	}
	gv := schema.GroupVersion{Group: widgetGroup, Version: "v1"}
	gv.Group = group
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gv.WithKind("Widget"))
	u.SetName(widget.Name)
	u.SetNamespace(widget.Namespace)
	_ = unstructured.SetNestedField(u.Object, "Ready", "status", "phase")
	return r.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner(owner), client.ForceOwnership) // want `^handwritten status write to an object of unknown kind: .*\(not moved to the patcher: u's group, version and kind are not constants`
}
