// Package controllerutil is a minimal stub of
// sigs.k8s.io/controller-runtime/pkg/controller/controllerutil for analysistest.
package controllerutil

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func AddFinalizer(o client.Object, finalizer string) bool {
	o.SetFinalizers(append(o.GetFinalizers(), finalizer))
	return true
}

func RemoveFinalizer(o client.Object, finalizer string) bool {
	o.SetFinalizers(nil)
	return true
}

func ContainsFinalizer(o client.Object, finalizer string) bool { return len(o.GetFinalizers()) > 0 }

func SetControllerReference(owner, controlled client.Object, scheme *runtime.Scheme) error {
	return nil
}

type OperationResult string

const (
	OperationResultNone              OperationResult = "unchanged"
	OperationResultCreated           OperationResult = "created"
	OperationResultUpdated           OperationResult = "updated"
	OperationResultUpdatedStatus     OperationResult = "updatedStatus"
	OperationResultUpdatedStatusOnly OperationResult = "updatedStatusOnly"
)

type MutateFn func() error

// CreateOrUpdate Gets obj, runs f, and Creates or Updates it (controller-runtime's).
func CreateOrUpdate(ctx context.Context, c client.Client, obj client.Object, f MutateFn) (OperationResult, error) {
	return OperationResultNone, f()
}

// CreateOrPatch Gets obj, runs f, and Creates it, or Patches it and then
// its status with client.MergeFrom (controller-runtime's).
func CreateOrPatch(ctx context.Context, c client.Client, obj client.Object, f MutateFn) (OperationResult, error) {
	return OperationResultNone, f()
}
