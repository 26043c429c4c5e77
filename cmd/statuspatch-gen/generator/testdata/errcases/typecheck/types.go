package typecheck

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Widget's status type does not exist.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            WidgetStatuz `json:"status,omitempty"`
}
