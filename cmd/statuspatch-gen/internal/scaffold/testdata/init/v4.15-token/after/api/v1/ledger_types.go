package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// LedgerSpec defines the desired state of Ledger.
type LedgerSpec struct {
	Jobs []string `json:"jobs,omitempty"`
}

// LedgerStatus defines the observed state of Ledger: jobs taken off the
// queue, a decision that must be made once.
type LedgerStatus struct {
	// +optional
	Taken []string `json:"taken,omitempty"`
	// WriteToken is set by the status patcher in every status write.
	// +statuspatch:writeToken
	// +optional
	WriteToken string `json:"writeToken,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// Ledger is the Schema for the ledgers API.
type Ledger struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   LedgerSpec   `json:"spec"`
	Status LedgerStatus `json:"status,omitempty"`
}
