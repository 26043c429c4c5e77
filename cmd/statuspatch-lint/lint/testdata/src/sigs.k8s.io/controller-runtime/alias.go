// Package controllerruntime is a minimal stub of sigs.k8s.io/controller-runtime
// (imported as ctrl) for analysistest: the types a scaffolded Reconcile uses.
package controllerruntime

import (
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// Request is reconcile.Request in the real package.
type Request struct {
	types.NamespacedName
}

// Result is reconcile.Result in the real package.
type Result struct {
	Requeue bool
}

// SetControllerReference is controllerutil's, as in the real package.
var SetControllerReference = controllerutil.SetControllerReference
