package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// SkippedStatus is the observed state of a Skipped.
type SkippedStatus struct {
	Phase string `json:"phase,omitempty"`
}

// Skipped is a test kind.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Skipped struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Status SkippedStatus `json:"status,omitempty"`
}

// SkippedList contains a list of Skipped.
// +kubebuilder:object:root=true
type SkippedList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Skipped `json:"items"`
}

func init() {
	SchemeBuilder.Register(&Skipped{}, &SkippedList{})
}
