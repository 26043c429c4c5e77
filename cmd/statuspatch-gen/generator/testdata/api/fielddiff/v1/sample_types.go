package v1

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Phase is a named string: the generated diff compares it with ==.
type Phase string

// Endpoint is a nested struct with its own optional fields.
type Endpoint struct {
	Host  string            `json:"host"`
	Port  *int32            `json:"port,omitempty"`
	Tags  []string          `json:"tags,omitempty"`
	Extra map[string]string `json:"extra,omitempty"`
}

// Shard is a nested struct holding another nested struct and a time.
type Shard struct {
	Name      string       `json:"name"`
	Primary   Endpoint     `json:"primary"`
	Replicas  []Endpoint   `json:"replicas,omitempty"`
	UpdatedAt *metav1.Time `json:"updatedAt,omitempty"`
}

// SampleStatus has a field of every JSON shape: scalars with and without
// omitempty, a named string, pointers to scalars and structs, nested
// structs, slices of scalars and structs, maps of scalars and structs,
// metav1.Time by value and pointer, a Quantity (own MarshalJSON), an
// omitzero struct, an untagged field, a "-" field, an unexported field and
// conditions.
type SampleStatus struct {
	ObservedGeneration int64                `json:"observedGeneration,omitempty"`
	Phase              Phase                `json:"phase,omitempty"`
	Ready              bool                 `json:"ready"`
	Replicas           int32                `json:"replicas"`
	Ratio              float64              `json:"ratio,omitempty"`
	Message            *string              `json:"message,omitempty"`
	Leader             *Endpoint            `json:"leader,omitempty"`
	Primary            Endpoint             `json:"primary"`
	Shards             []Shard              `json:"shards,omitempty"`
	Names              []string             `json:"names"`
	Labels             map[string]string    `json:"labels,omitempty"`
	ByZone             map[string]Endpoint  `json:"byZone,omitempty"`
	Started            metav1.Time          `json:"started,omitempty"`
	Finished           *metav1.Time         `json:"finished,omitempty"`
	Capacity           *resource.Quantity   `json:"capacity,omitempty"`
	Window             Window               `json:"window,omitzero"`
	Untagged           string               // marshalled under its Go name
	Ignored            string               `json:"-"`
	internal           string               // not marshalled
	Conditions         []metav1.Condition   `json:"conditions,omitempty"`
	Counts             map[string][]int32   `json:"counts,omitempty"`
	Notes              map[string]*Endpoint `json:"notes,omitempty"`
}

// Window is a struct used with omitzero: left out when it is the zero value.
type Window struct {
	From int32 `json:"from,omitempty"`
	To   int32 `json:"to,omitempty"`
}

// Sample is the kind the fuzz test compares the two diff paths on.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Sample struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   SampleSpec   `json:"spec,omitempty"`
	Status SampleStatus `json:"status,omitempty"`
}

// SampleSpec is a small spec.
type SampleSpec struct {
	Size int32 `json:"size,omitempty"`
}

// SampleList contains a list of Sample.
// +kubebuilder:object:root=true
type SampleList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Sample `json:"items"`
}
