// Package v1 holds the operator's CRD types.
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

type Website struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Status struct{ URL string }
}

func (w *Website) DeepCopyObject() runtime.Object { return w }

// Gadget has no generated patcher.
type Gadget struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Status struct{ Phase string }
}

func (g *Gadget) DeepCopyObject() runtime.Object { return g }
