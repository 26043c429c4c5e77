// Package v1 holds sample CRD types.
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

type WidgetStatus struct {
	Ready              bool
	ObservedGeneration int64
	Conditions         []metav1.Condition
}

type Widget struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Status WidgetStatus
}

func (w *Widget) DeepCopyObject() runtime.Object { return w }

// DeepCopy is a copy of w (replay's copy of a re-read object).
func (w *Widget) DeepCopy() *Widget {
	c := *w
	c.Status.Conditions = append([]metav1.Condition(nil), w.Status.Conditions...)
	return &c
}

// Gadget has no generated patcher.
type Gadget struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Status struct{ Phase string }
}

func (g *Gadget) DeepCopyObject() runtime.Object { return g }
