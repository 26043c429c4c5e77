// Package controllerutil is a minimal stub of
// sigs.k8s.io/controller-runtime/pkg/controller/controllerutil for analysistest.
package controllerutil

import (
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
