package migrateapplykept

import (
	"context"
	"encoding/json"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type WidgetReconciler struct {
	client.Client
}

// applyPatch is trust-manager's ssa_client.ApplyPatch: an apply of the
// bytes it holds.
type applyPatch struct{ Patch []byte }

func (p applyPatch) Type() types.PatchType              { return types.ApplyPatchType } // want Type:`^const:application/apply-patch\+yaml$`
func (p applyPatch) Data(client.Object) ([]byte, error) { return p.Patch, nil }         // want Data:`^statusOnly\[0\] recvField:Patch$`

// trust-manager's bundle.Reconcile: the status is decided by a function
// that reads the object and returns the status, and the object written
// is a new one a builder returns with the patch. The patcher is made from
// the object the status was decided from, which only reconcileWidget
// holds: kept, and the finding names the builder, the status's function
// and its Get.
func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	status, resultErr := r.reconcileWidget(ctx, req)
	if status != nil {
		con, patch, err := statusPatch(req.Name, status)
		if err != nil {
			return ctrl.Result{}, err
		}
		if err := r.Status().Patch(ctx, con, patch, client.FieldOwner("widget-controller"), client.ForceOwnership); err != nil { // want `\(not moved to the patcher: con, the Widget written, is returned with the patch by statusPatch at line 33, not read with Get in Reconcile: the patcher is made from a read of the object \(its lock\), the read the status was decided from; status, given to statusPatch, is returned by r.reconcileWidget at line 31, which reads the Widget with Get at line 46: the patcher would be made there and handed out of reconcileWidget, changing its results; move it by hand\)$`
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, resultErr
}

func (r *WidgetReconciler) reconcileWidget(ctx context.Context, req ctrl.Request) (*v1.WidgetStatus, error) {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return nil, client.IgnoreNotFound(err)
	}
	return &v1.WidgetStatus{Size: w.Spec.Size}, nil
}

// statusPatch is trust-manager's ssa_client.GenerateBundleStatusPatch.
func statusPatch(name string, status *v1.WidgetStatus) (*v1.Widget, client.Patch, error) { // want statusPatch:`^patch\(1: unresolved: patch of type applyPatch built in statusPatch, not one of controller-runtime's: its Data is not read\)$`
	w := &v1.Widget{}
	w.Name = name
	data, err := json.Marshal(map[string]any{"metadata": map[string]string{"name": name}, "status": status})
	if err != nil {
		return w, nil, err
	}
	return w, applyPatch{data}, nil
}

// The same builder, its status not returned by a function that reads:
// kept, the builder's object named.
func (r *WidgetReconciler) applyGiven(ctx context.Context, name string, status *v1.WidgetStatus) error {
	con, patch, err := statusPatch(name, status)
	if err != nil {
		return err
	}
	return r.Status().Patch(ctx, con, patch, client.FieldOwner("widget-controller"), client.ForceOwnership) // want `\(not moved to the patcher: con, the Widget written, is returned with the patch by statusPatch at line 66, not read with Get in applyGiven: the patcher is made from a read of the object \(its lock\), the read the status was decided from; move it by hand\)$`
}
