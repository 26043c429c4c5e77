package migrateapplyhelper

import (
	"context"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// CallerOfUnstructured hands the object to a helper that applies an
// unstructured object named after it; moved.
func (r *WidgetReconciler) CallerOfUnstructured(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	return r.applyUnstructured(ctx, w)
}

func (r *WidgetReconciler) applyUnstructured(ctx context.Context, w *v1.Widget) error { // want applyUnstructured:`^statusOnly\[1\]$`
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(v1.GroupVersion.WithKind("Widget"))
	u.SetName(w.Name)
	u.SetNamespace(w.Namespace)
	_ = unstructured.SetNestedField(u.Object, "Ready", "status", "phase")
	return r.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u), fieldOwner, client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(string\(fieldOwner\)\)$`
}
