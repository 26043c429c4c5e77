package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// WidgetSpec is the desired state of a Widget.
type WidgetSpec struct {
	Size int32 `json:"size,omitempty"`
}

// WidgetStatus is a plain status: no conditions, no observedGeneration.
type WidgetStatus struct {
	Phase    string `json:"phase,omitempty"`
	Replicas int32  `json:"replicas,omitempty"`
}

// Widget has a plain status.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WidgetSpec   `json:"spec,omitempty"`
	Status WidgetStatus `json:"status,omitempty"`
}

// WidgetList contains a list of Widget. It is a root type without a status
// subresource, so it gets no patcher.
// +kubebuilder:object:root=true
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}

// Config is a root type without a status subresource.
// +kubebuilder:object:root=true
type Config struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Data              map[string]string `json:"data,omitempty"`
}

func init() {
	SchemeBuilder.Register(&Widget{}, &WidgetList{}, &Config{})
}
