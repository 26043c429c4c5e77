package notstruct

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Widget's status is a string.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            string `json:"status,omitempty"`
}
