// Package v1 is a kubebuilder-shaped API package scaffolded with
// `kubebuilder create api --group apps --version v1 --kind Application --ssa`.
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

type ApplicationSpec struct {
	Replicas int32
}

type ApplicationStatus struct {
	Conditions []metav1.Condition
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:ac:generate=true
type Application struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Spec   ApplicationSpec
	Status ApplicationStatus
}

func (a *Application) DeepCopyObject() runtime.Object { return a }
