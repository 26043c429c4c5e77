package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// LedgerStatus holds decisions that are not idempotent (a queue taken
// from, a counter) and the write token that settles their writes.
type LedgerStatus struct {
	// Taken are the jobs taken off the queue.
	// +optional
	Taken []string `json:"taken,omitempty"`
	// Count counts the decisions.
	// +optional
	Count int64 `json:"count,omitempty"`
	// WriteToken is set by the patcher in every status write.
	// +statuspatch:writeToken
	// +optional
	WriteToken string `json:"writeToken,omitempty"`
}

// Ledger has a value status and the write token (merge mode, generated
// diff).
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Ledger struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Status LedgerStatus `json:"status,omitempty"`
}

// LedgerList contains a list of Ledger.
// +kubebuilder:object:root=true
type LedgerList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Ledger `json:"items"`
}

// QueueStatus is a pointer status in apply mode with the write token.
type QueueStatus struct {
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// +statuspatch:writeToken
	// +optional
	Token string `json:"token,omitempty"`
}

// Queue writes its status by server-side apply.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +statuspatch:apply=true
type Queue struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Status *QueueStatus `json:"status,omitempty"`
}

// QueueList contains a list of Queue.
// +kubebuilder:object:root=true
type QueueList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Queue `json:"items"`
}

func init() {
	SchemeBuilder.Register(&Ledger{}, &LedgerList{}, &Queue{}, &QueueList{})
}
