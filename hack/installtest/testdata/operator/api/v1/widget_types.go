package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// WidgetSpec is what the user asks for.
type WidgetSpec struct {
	// Size is the number of parts.
	// +kubebuilder:validation:Minimum=0
	Size int32 `json:"size"`
}

// WidgetStatus is what the reconciler observed.
type WidgetStatus struct {
	// ObservedGeneration is the generation the status describes.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Parts lists one name per part.
	// +optional
	Parts []string `json:"parts,omitempty"`
	// Conditions hold Ready.
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// Widget is the install test's one kind.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WidgetSpec   `json:"spec,omitempty"`
	Status WidgetStatus `json:"status,omitempty"`
}

// WidgetList is a list of Widgets.
// +kubebuilder:object:root=true
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}

func metaAddToGroupVersion(s *runtime.Scheme) { metav1.AddToGroupVersion(s, GroupVersion) }
