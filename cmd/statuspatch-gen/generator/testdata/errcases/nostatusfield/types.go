package nostatusfield

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Widget asks for a patcher without a Status field.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +statuspatch:generate=true
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}
