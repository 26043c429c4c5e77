package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// DroppedStatus is the observed state of a Dropped.
type DroppedStatus struct {
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// Dropped is a test kind.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +statuspatch:generate=false
type Dropped struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Status DroppedStatus `json:"status,omitempty"`
}

// DroppedList contains a list of Dropped.
// +kubebuilder:object:root=true
type DroppedList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Dropped `json:"items"`
}

func init() {
	SchemeBuilder.Register(&Dropped{}, &DroppedList{})
}
