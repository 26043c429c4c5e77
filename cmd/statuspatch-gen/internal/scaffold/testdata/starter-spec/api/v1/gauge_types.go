// Gauge is a kind whose CRD refuses an empty spec: the starter test init
// writes must set what the schema requires (TestStarterSpecOnTheServer).

package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	sharedv1 "example.com/goldens/api/shared/v1"
)

// Mode is how a Gauge samples.
// +kubebuilder:validation:Enum=Fast;Slow
type Mode string

// GaugeSpec has a field of each rule init fills.
type GaugeSpec struct {
	// required, no omitempty: 0 is sent, under the minimum
	// +kubebuilder:validation:Minimum=1
	SizeGiB int64 `json:"sizeGiB"`
	// a named string with an enum
	Mode Mode `json:"mode"`
	// required with omitempty: "" is left out
	// +kubebuilder:validation:MinLength=3
	// +kubebuilder:validation:MaxLength=8
	// +required
	Owner string `json:"owner,omitempty"`
	// a required pointer to a struct with required fields
	// +required
	Limits *GaugeLimits `json:"limits,omitempty"`
	// a required list with minItems
	// +kubebuilder:validation:MinItems=1
	Zones []GaugeZone `json:"zones"`
	// a required pointer to an integer
	// +kubebuilder:validation:Minimum=2
	Replicas *int32 `json:"replicas"`
	// a required boolean omitempty leaves out when false
	// +required
	Enabled bool `json:"enabled,omitempty"`
	// optional, but a struct is sent as {} and its seconds as 0
	// +optional
	Window GaugeWindow `json:"window"`
	// optional and left out: its pattern is never checked
	// +kubebuilder:validation:Pattern=`^[a-z]+$`
	// +optional
	Note string `json:"note,omitempty"`
	// a required pointer to a struct of another package
	// +required
	Runner *sharedv1.Runner `json:"runner,omitempty"`
}

// GaugeLimits are a Gauge's limits.
type GaugeLimits struct {
	// +kubebuilder:validation:Minimum=10
	// +kubebuilder:validation:ExclusiveMinimum=true
	MaxObjects int32 `json:"maxObjects"`
	// +kubebuilder:validation:Minimum=7
	// +kubebuilder:validation:MultipleOf=5
	Step int32 `json:"step"`
}

// GaugeZone is a zone a Gauge samples in.
type GaugeZone struct {
	// +kubebuilder:validation:MinLength=2
	Name string `json:"name"`
}

// GaugeWindow is a Gauge's sampling window.
type GaugeWindow struct {
	// +kubebuilder:validation:Minimum=30
	// +optional
	Seconds int32 `json:"seconds"`
}

// GaugeStatus is what a Gauge's reconciler observed.
type GaugeStatus struct {
	Phase string `json:"phase,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// Gauge is the Schema for the gauges API.
type Gauge struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +required
	Spec   GaugeSpec   `json:"spec"`
	Status GaugeStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// GaugeList contains a list of Gauge.
type GaugeList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Gauge `json:"items"`
}

func init() {
	SchemeBuilder.Register(&Gauge{}, &GaugeList{})
}
