package migrateapplybytes

import (
	"context"
	"encoding/json"

	v1 "example.com/op/api/v1"
	widgetac "example.com/op/api/v1/ac"
	"example.com/op/ssautil"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The marshal is the file's only use of encoding/json, its error not
// wrapped: the import goes with it.
func (r *WidgetReconciler) ReconcileAlone(ctx context.Context, req ctrl.Request) error {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return client.IgnoreNotFound(err)
	}
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithReady(true))
	data, err := json.Marshal(ac)
	if err != nil {
		return err
	}
	return r.Status().Patch(ctx, &w, ssautil.ApplyPatch{data}, ssautil.FieldManager, client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}
