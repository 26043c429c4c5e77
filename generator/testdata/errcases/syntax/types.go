package syntax

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Widget does not parse.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Widget struct {
	metav1.TypeMeta `json:",inline"`
	Status          struct{ `json:"status,omitempty"`
}
