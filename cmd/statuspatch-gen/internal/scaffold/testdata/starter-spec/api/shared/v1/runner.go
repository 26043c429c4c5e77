// Package v1 is a package of types a kind's spec uses from outside its API
// package (as kubebuilder's CronJob uses batchv1.JobTemplateSpec): init
// fills them from their declarations here.
package v1

import "time"

// Runner runs a Gauge's samples.
type Runner struct {
	// +kubebuilder:validation:MinLength=1
	Image string `json:"image"`
	// Steps are the runner's steps, a list the CRD requires (empty is
	// accepted).
	Steps []Step `json:"steps"`
	// Since has JSON of its own: a string, not its fields.
	// +optional
	Since Stamp `json:"since,omitempty"`
}

// Step is one step of a Runner.
type Step struct {
	Name string `json:"name"`
}

// Stamp is a time, marshalled as RFC 3339 text.
type Stamp struct {
	t time.Time
}

// MarshalJSON writes the stamp as RFC 3339 text.
func (s Stamp) MarshalJSON() ([]byte, error) { return s.t.MarshalJSON() }

// UnmarshalJSON reads RFC 3339 text.
func (s *Stamp) UnmarshalJSON(b []byte) error { return s.t.UnmarshalJSON(b) }
