package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Endpoint is an item of a map list keyed by two fields, with a map list
// of its own.
type Endpoint struct {
	Name string `json:"name"`
	Port int32  `json:"port"`
	// +listType=map
	// +listMapKey=protocol
	Protocols []Protocol `json:"protocols,omitempty"`
}

type Protocol struct {
	Protocol string `json:"protocol"`
	Ready    bool   `json:"ready,omitempty"`
}

// Step is an item of a map list in a nested struct.
type Step struct {
	Name  string `json:"name"`
	Phase string `json:"phase,omitempty"`
}

// Progress is inlined in the status: its lists are at the status's level.
type Progress struct {
	// +listType=map
	// +listMapKey=name
	Steps []Step `json:"steps,omitempty"`
}

// Traffic is a nested status struct behind a pointer.
type Traffic struct {
	// +listType=map
	// +listMapKey=name
	Canaries []Step `json:"canaries,omitempty"`
	// +listType=set
	Hosts []string `json:"hosts,omitempty"`
}

// RolloutStatus has kubebuilder's condition list, lists that are not map
// lists, and map lists at every depth.
type RolloutStatus struct {
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions         []metav1.Condition `json:"conditions,omitempty"`
	ObservedGeneration int64              `json:"observedGeneration,omitempty"`
	// +listType=map
	// +listMapKey=name
	// +listMapKey=port
	Endpoints []Endpoint `json:"endpoints,omitempty"`
	// +listType=atomic
	Messages []string `json:"messages,omitempty"`
	Progress `json:",inline"`
	Traffic  *Traffic `json:"traffic,omitempty"`
}

// Rollout writes its status by server-side apply.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +statuspatch:apply=true
type Rollout struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Status RolloutStatus `json:"status,omitempty"`
}

// RolloutList contains a list of Rollout.
// +kubebuilder:object:root=true
type RolloutList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Rollout `json:"items"`
}

// Canary has the same status and no +statuspatch:apply: its patcher merges.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Canary struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Status RolloutStatus `json:"status,omitempty"`
}

// CanaryList contains a list of Canary.
// +kubebuilder:object:root=true
type CanaryList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Canary `json:"items"`
}

func init() {
	SchemeBuilder.Register(&Rollout{}, &RolloutList{}, &Canary{}, &CanaryList{})
}
