// Package migrateapplysetter: parts of the object given to client-go's
// apply configuration setters (lws's GetPVCApplyConfiguration:
// WithAccessModes(pvc.Spec.AccessModes...)). applyconfiguration-gen's
// With* setters copy the value, each element or each entry they are
// given: a part without references is read, and the write moves; a value
// holding a reference (a map by value: WithRequests(ResourceList)) is
// shared with the configuration, and keeps the write.
package migrateapplysetter

import (
	"context"
	"encoding/json"

	v1 "example.com/op/api/v1"
	accorev1 "k8s.io/client-go/applyconfigurations/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct{ client.Client }

// claim builds a configuration from copies of the object's parts.
func claim(w *v1.Widget) *accorev1.PersistentVolumeClaimApplyConfiguration { // want claim:`statusOnly\[0\]`
	spec := accorev1.PersistentVolumeClaimSpec().WithAccessModes(w.Finalizers...).WithStorageClassName(w.Name)
	return accorev1.PersistentVolumeClaim().WithLabels(w.Spec.Labels).WithSpec(spec)
}

// Copied: every setter copies what it is given, and the configuration is
// only marshalled: it moves.
func (r *Reconciler) Copied(ctx context.Context, w *v1.Widget) error { // want Copied:"why"
	stored := w.DeepCopy()
	data, err := json.Marshal(claim(w))
	if err != nil || len(data) == 0 {
		return err
	}
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// Shared: WithRequests keeps the map it is given (b.Requests = &value):
// the configuration shares the object's labels.
func (r *Reconciler) Shared(ctx context.Context, w *v1.Widget) error { // want Shared:"why"
	stored := w.DeepCopy()
	vrr := accorev1.VolumeResourceRequirements().WithRequests(w.Spec.Labels)
	data, err := json.Marshal(vrr)
	if err != nil || len(data) == 0 {
		return err
	}
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: w.Spec may be changed at line \d+: w.Spec.Labels, a reference into the object, is passed to v1.VolumeResourceRequirementsApplyConfiguration.WithRequests \(VolumeResourceRequirementsApplyConfiguration.WithRequests is a setter of client-go's apply configurations: it copies what it is given, but what it is given holds a reference, which the configuration then shares, and -fix does not follow the configuration\)`
}
