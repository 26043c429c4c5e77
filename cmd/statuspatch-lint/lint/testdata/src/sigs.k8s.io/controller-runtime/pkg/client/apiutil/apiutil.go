// Package apiutil is a minimal stub of controller-runtime's apiutil for analysistest.
package apiutil

import "k8s.io/apimachinery/pkg/runtime"

// GVKForObject returns the object's kind (the stub: none).
func GVKForObject(obj runtime.Object, scheme *runtime.Scheme) (string, error) { return "", nil }
