package v1

import (
	// A different alias: conditions are matched by type, not by import name.
	kmeta "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// FleetStatus has conditions only.
type FleetStatus struct {
	Conditions []kmeta.Condition `json:"conditions,omitempty"`
	Members    int32             `json:"members,omitempty"`
}

// Fleet is cluster-scoped.
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Cluster
// +kubebuilder:subresource:status
type Fleet struct {
	kmeta.TypeMeta   `json:",inline"`
	kmeta.ObjectMeta `json:"metadata,omitempty"`

	Status FleetStatus `json:"status,omitempty"`
}

// FleetList contains a list of Fleet.
// +kubebuilder:object:root=true
type FleetList struct {
	kmeta.TypeMeta `json:",inline"`
	kmeta.ListMeta `json:"metadata,omitempty"`
	Items          []Fleet `json:"items"`
}

func init() {
	SchemeBuilder.Register(&Fleet{}, &FleetList{})
}
