// Package migrateapplykept: server-side applies of the status that stay,
// each kept by the fact that makes a move to apply mode another write
// (issue 80: trust-manager's and template-operator's).
package migrateapplykept

import (
	"context"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

const fieldOwner = "sample-controller"

type SampleReconciler struct {
	client.Client
}

// template-operator's ssaStatus: the object converted whole to an
// unstructured configuration, applied without forced ownership. The
// patcher's apply mode always forces it, so it would take the fields
// another manager owns where this apply gets a conflict: kept, and the
// finding says so.
func (r *SampleReconciler) ssaStatus(ctx context.Context, obj client.Object) error {
	obj.SetResourceVersion("")
	applyConfig, err := applyConfigurationFor(obj)
	if err != nil {
		return err
	}
	return r.SubResource("status").Apply(ctx, applyConfig, client.FieldOwner(fieldOwner)) // want `^handwritten status write to runtime.ApplyConfiguration \(an interface\): use the generated status patcher of the object's concrete type, in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(fieldOwner\) \(not moved to the patcher: the apply of applyConfig, a runtime.ApplyConfiguration, does not force ownership \(client.ForceOwnership\), and apply mode does: move it by hand if taking the fields from other managers is what you want\)$`
}

// The same apply, forced: the interface is what keeps it, as before.
func (r *SampleReconciler) ssaStatusForced(ctx context.Context, obj client.Object) error {
	applyConfig, err := applyConfigurationFor(obj)
	if err != nil {
		return err
	}
	return r.SubResource("status").Apply(ctx, applyConfig, client.FieldOwner(fieldOwner), client.ForceOwnership) // want `^handwritten status write to runtime.ApplyConfiguration \(an interface\): use the generated status patcher of the object's concrete type, in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(fieldOwner\)$`
}

func applyConfigurationFor(obj client.Object) (runtime.ApplyConfiguration, error) {
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil, err
	}
	return client.ApplyConfigurationFromUnstructured(&unstructured.Unstructured{Object: m}), nil
}

var _ = v1.Widget{}
