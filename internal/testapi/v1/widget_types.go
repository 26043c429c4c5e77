package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// WidgetSpec is the desired state of a Widget.
type WidgetSpec struct {
	// Size is an arbitrary number the tests change to bump the generation.
	// +optional
	Size int32 `json:"size,omitempty"`

	// Data is an arbitrary string.
	// +optional
	Data string `json:"data,omitempty"`

	// Labels is an arbitrary map.
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
}

// WidgetPlan is a nested struct held by pointer in the status.
type WidgetPlan struct {
	// +optional
	ID string `json:"id,omitempty"`
	// +optional
	Steps []string `json:"steps,omitempty"`
	// +optional
	Current int32 `json:"current,omitempty"`
}

// Items is +listType=atomic: replaced whole, as a JSON merge patch (the only
// kind of patch besides JSON patch and apply that custom resources take)
// replaces every list anyway; atomic makes server-side apply agree.

// WidgetStatus is the observed state of a Widget. Every field is optional.
type WidgetStatus struct {
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// +optional
	// +listType=atomic
	Items []string `json:"items,omitempty"`

	// +optional
	Plan *WidgetPlan `json:"plan,omitempty"`

	// +optional
	Counters map[string]int64 `json:"counters,omitempty"`

	// +optional
	Phase string `json:"phase,omitempty"`

	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// Members carry conditions of their own, one list level down.
	// +optional
	// +listType=map
	// +listMapKey=name
	Members []WidgetMember `json:"members,omitempty"`

	// WriteToken is the write token of the tests that settle by it
	// (patcher.WithWriteToken): every status write they send sets it.
	// +optional
	WriteToken string `json:"writeToken,omitempty"`
}

// WidgetMember is one item of a Widget's status.members, with its own
// conditions.
type WidgetMember struct {
	Name string `json:"name"`

	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// Widget is a namespaced kind with a status subresource.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:path=widgets
// +kubebuilder:subresource:status
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec WidgetSpec `json:"spec,omitempty"`
	// +optional
	Status WidgetStatus `json:"status,omitempty"`
}

// WidgetList is a list of Widgets.
//
// +kubebuilder:object:root=true
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}

func init() {
	SchemeBuilder.Register(&Widget{}, &WidgetList{})
}
