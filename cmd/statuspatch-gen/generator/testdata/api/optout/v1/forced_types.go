package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ForcedStatus is the observed state of a Forced.
type ForcedStatus struct {
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// Forced is a test kind.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +statuspatch:generate=true
type Forced struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Status ForcedStatus `json:"status,omitempty"`
}

// ForcedList contains a list of Forced.
// +kubebuilder:object:root=true
type ForcedList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Forced `json:"items"`
}

func init() {
	SchemeBuilder.Register(&Forced{}, &ForcedList{})
}
