package v1

import (
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Deploy is a Deployment as a CRD kind (the same spec and status types), so
// that the Flush benchmarks measure a generated patcher on objects of
// Deployment's shape and size.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Deploy struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   appsv1.DeploymentSpec   `json:"spec,omitempty"`
	Status appsv1.DeploymentStatus `json:"status,omitempty"`
}

// DeployList contains a list of Deploy.
// +kubebuilder:object:root=true
type DeployList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Deploy `json:"items"`
}
