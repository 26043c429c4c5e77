package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"example.com/goldens/api/common"
)

// PointerWidgetStatus is used through a pointer field.
type PointerWidgetStatus struct {
	ObservedGeneration int64              `json:"observedGeneration,omitempty"`
	Conditions         []metav1.Condition `json:"conditions,omitempty"`
}

// PointerWidget has a pointer status field: Status() allocates it.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type PointerWidget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Status *PointerWidgetStatus `json:"status,omitempty"`
}

// PointerWidgetList contains a list of PointerWidget.
// +kubebuilder:object:root=true
type PointerWidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []PointerWidget `json:"items"`
}

// EmbeddedWidgetStatus gets conditions and observedGeneration promoted from
// an embedded struct of another package.
type EmbeddedWidgetStatus struct {
	common.CommonStatus `json:",inline"`
	Ready               bool `json:"ready,omitempty"`
}

// EmbeddedWidget is cluster-scoped with an embedded common status.
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Cluster
// +kubebuilder:subresource:status
type EmbeddedWidget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Status EmbeddedWidgetStatus `json:"status,omitempty"`
}

// EmbeddedWidgetList contains a list of EmbeddedWidget.
// +kubebuilder:object:root=true
type EmbeddedWidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []EmbeddedWidget `json:"items"`
}

// baseStatus is a local, unexported embedded struct.
type baseStatus struct {
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// IndirectStatus embeds a local struct (observedGeneration is promoted) and
// a pointer (its conditions are not: taking their address could dereference
// nil).
type IndirectStatus struct {
	baseStatus          `json:",inline"`
	*common.Conditioned `json:"common,omitempty"`
}

// Indirect gets MarkObserved through a local embedded struct, no conditions.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Indirect struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Status IndirectStatus `json:"status,omitempty"`
}

// IndirectList contains a list of Indirect.
// +kubebuilder:object:root=true
type IndirectList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Indirect `json:"items"`
}

func init() {
	SchemeBuilder.Register(&PointerWidget{}, &PointerWidgetList{}, &EmbeddedWidget{}, &EmbeddedWidgetList{}, &Indirect{}, &IndirectList{})
}
