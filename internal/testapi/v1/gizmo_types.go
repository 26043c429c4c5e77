package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// GizmoStatus holds the values a JSON merge patch cannot write: a required
// nullable field (null is a value here, while a merge patch reads null as
// "delete") and map values that may be null.
type GizmoStatus struct {
	// Owner is required and nullable: a status without it is invalid, and
	// null is a legal value (no owner).
	// +required
	// +nullable
	Owner *string `json:"owner"`

	// +optional
	Phase string `json:"phase,omitempty"`

	// Notes keeps whatever it is given, null values included.
	// +optional
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:validation:Type=object
	// +kubebuilder:pruning:PreserveUnknownFields
	Notes map[string]*string `json:"notes,omitempty"`

	// Tags is a map whose values are not nullable: the server prunes a null
	// value, so a nil value can never be stored.
	// +optional
	Tags map[string]*string `json:"tags,omitempty"`
}

// Gizmo is a namespaced kind with a status subresource whose status has a
// required nullable field.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:path=gizmos
// +kubebuilder:subresource:status
type Gizmo struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +optional
	Status GizmoStatus `json:"status,omitempty"`
}

// GizmoList is a list of Gizmos.
//
// +kubebuilder:object:root=true
type GizmoList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Gizmo `json:"items"`
}

func init() {
	SchemeBuilder.Register(&Gizmo{}, &GizmoList{})
}
