package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ProbeStatus is kubebuilder's scaffolded status: its patcher has the
// generated field diff as well as the apply mode.
type ProbeStatus struct {
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// Probe writes its status by server-side apply.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +statuspatch:apply=true
type Probe struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Status ProbeStatus `json:"status,omitempty"`
}

// ProbeList contains a list of Probe.
// +kubebuilder:object:root=true
type ProbeList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Probe `json:"items"`
}

func init() {
	SchemeBuilder.Register(&Probe{}, &ProbeList{})
}
