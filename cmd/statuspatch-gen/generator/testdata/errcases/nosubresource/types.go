package nosubresource

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// WidgetStatus is fine.
type WidgetStatus struct{}

// Widget asks for a patcher without a status subresource.
// +kubebuilder:object:root=true
// +statuspatch:generate=true
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            WidgetStatus `json:"status,omitempty"`
}
