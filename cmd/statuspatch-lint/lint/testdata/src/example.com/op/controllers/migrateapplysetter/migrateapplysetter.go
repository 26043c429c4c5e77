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
// the configuration shares the object's labels, and is followed
// (readersapplyholder.go): only marshalled, it moves.
func (r *Reconciler) Shared(ctx context.Context, w *v1.Widget) error { // want Shared:"why"
	stored := w.DeepCopy()
	vrr := accorev1.VolumeResourceRequirements().WithRequests(w.Spec.Labels)
	data, err := json.Marshal(vrr)
	if err != nil || len(data) == 0 {
		return err
	}
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// SharedWritten writes through the configuration's map: kept, naming
// the line.
func (r *Reconciler) SharedWritten(ctx context.Context, w *v1.Widget) error { // want SharedWritten:"why"
	stored := w.DeepCopy()
	vrr := accorev1.VolumeResourceRequirements().WithRequests(w.Spec.Labels)
	(*vrr.Requests)["tier"] = "gold"
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: w.Spec may be changed at line \d+: w.Spec.Labels, a reference into the object, is passed to v1.VolumeResourceRequirementsApplyConfiguration.WithRequests, whose configuration, at line \d+, .*is changed at line \d+`
}

// requests has lws's GetPVCApplyConfiguration's shape: the spec's map in
// a local configuration's field, given by address to a setter of the
// spec configuration, itself set again and put in a claim, returned
// with an error.
func requests(w *v1.Widget) (*accorev1.PersistentVolumeClaimApplyConfiguration, error) { // want requests:`^returns\[0:\[0\]\]$`
	spec := accorev1.PersistentVolumeClaimSpec().WithAccessModes(w.Finalizers...)
	vrr := accorev1.VolumeResourceRequirementsApplyConfiguration{}
	vrr.Requests = (*accorev1.ResourceList)(&w.Spec.Labels)
	spec = spec.WithResources(&vrr)
	spec = spec.WithStorageClassName(w.Name)
	return accorev1.PersistentVolumeClaim().WithSpec(spec), nil
}

// Held marshals what requests returns: it moves.
func (r *Reconciler) Held(ctx context.Context, w *v1.Widget) error { // want Held:"why"
	stored := w.DeepCopy()
	claim, err := requests(w)
	if err != nil {
		return err
	}
	data, err := json.Marshal(claim)
	if err != nil || len(data) == 0 {
		return err
	}
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// HeldWritten writes through what requests returns: kept, naming the
// line.
func (r *Reconciler) HeldWritten(ctx context.Context, w *v1.Widget) error { // want HeldWritten:"why"
	stored := w.DeepCopy()
	claim, err := requests(w)
	if err != nil {
		return err
	}
	(*claim.Spec.Resources.Requests)["tier"] = "gold"
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: w is passed to requests at line \d+, where what it returns, a reference into w, is assigned to claim at line \d+, where .* is changed at line \d+\)`
}
