// Package v2 holds a CRD whose patcher is generated into a separate package.
package v2

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

type Gizmo struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Status struct{ Ready bool }
}

func (g *Gizmo) DeepCopyObject() runtime.Object { return g }
