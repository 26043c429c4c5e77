package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// CaptainSpec defines the desired state of Captain.
type CaptainSpec struct {
	Foo *string `json:"foo,omitempty"`
}

// CaptainStatus defines the observed state of Captain.
type CaptainStatus struct {
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// Captain is the Schema for the captains API.
type Captain struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   CaptainSpec   `json:"spec"`
	Status CaptainStatus `json:"status,omitempty"`
}
