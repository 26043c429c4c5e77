package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// GizmoCondition is the project's own condition type.
type GizmoCondition struct {
	Type   string `json:"type"`
	Status string `json:"status"`
}

// GizmoStatus has fields named like the helpers' but of other types: the
// patcher is generated without SetCondition and MarkObserved.
type GizmoStatus struct {
	Conditions         []GizmoCondition `json:"conditions,omitempty"`
	ObservedGeneration int32            `json:"observedGeneration,omitempty"`
}

// Gizmo has custom condition and generation types.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Gizmo struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Status GizmoStatus `json:"status,omitempty"`
}

// GizmoList contains a list of Gizmo.
// +kubebuilder:object:root=true
type GizmoList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Gizmo `json:"items"`
}

// Conditions is a named slice of metav1.Condition: &st.Conditions is not a
// *[]metav1.Condition, so there is no SetCondition.
type Conditions []metav1.Condition

// DoohickeyStatus has a named conditions slice and a standard
// observedGeneration.
type DoohickeyStatus struct {
	Conditions         Conditions `json:"conditions,omitempty"`
	ObservedGeneration int64      `json:"observedGeneration,omitempty"`
}

// Doohickey gets MarkObserved but no condition helpers.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Doohickey struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Status DoohickeyStatus `json:"status,omitempty"`
}

// DoohickeyList contains a list of Doohickey.
// +kubebuilder:object:root=true
type DoohickeyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Doohickey `json:"items"`
}

func init() {
	SchemeBuilder.Register(&Gizmo{}, &GizmoList{}, &Doohickey{}, &DoohickeyList{})
}
