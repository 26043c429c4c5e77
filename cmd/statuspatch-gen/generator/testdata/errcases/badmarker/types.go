package badmarker

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// WidgetStatus is fine.
type WidgetStatus struct{}

// Widget has a malformed marker.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +statuspatch:generate=maybe
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            WidgetStatus `json:"status,omitempty"`
}
