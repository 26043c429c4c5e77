package unexported

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// WidgetStatus is fine.
type WidgetStatus struct{}

// widget is unexported.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            WidgetStatus `json:"status,omitempty"`
}
