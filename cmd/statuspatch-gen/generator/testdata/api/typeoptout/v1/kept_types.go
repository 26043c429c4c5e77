package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// KeptStatus is the observed state of a Kept.
type KeptStatus struct {
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// Kept is a test kind.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Kept struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Status KeptStatus `json:"status,omitempty"`
}

// KeptList contains a list of Kept.
// +kubebuilder:object:root=true
type KeptList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Kept `json:"items"`
}

func init() {
	SchemeBuilder.Register(&Kept{}, &KeptList{})
}
