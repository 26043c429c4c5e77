// Package v1 holds kinds whose status has a write token
// (+statuspatch:writeToken), as statuspatch-gen's goldens do
// (cmd/statuspatch-gen/generator/testdata/api/token/v1).
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// LedgerStatus holds decisions that are not idempotent and the write
// token that settles their writes.
type LedgerStatus struct {
	// Taken are the jobs taken off the queue.
	Taken []string `json:"taken,omitempty"`
	// Count counts the decisions.
	Count int64 `json:"count,omitempty"`
	// WriteToken is set by the patcher in every status write.
	// +statuspatch:writeToken
	// +optional
	WriteToken string `json:"writeToken,omitempty"`
	// LastWriteToken has a name like the token's, and no marker.
	LastWriteToken string `json:"lastWriteToken,omitempty"`
}

type Ledger struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Status LedgerStatus `json:"status,omitempty"`
}

func (l *Ledger) DeepCopyObject() runtime.Object { return l }

// QueueStatus is a pointer status with the token under another name.
type QueueStatus struct {
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// +statuspatch:writeToken
	Token string `json:"token,omitempty"`
}

type Queue struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Status *QueueStatus `json:"status,omitempty"`
}

func (q *Queue) DeepCopyObject() runtime.Object { return q }

// JournalStatus has a field named WriteToken without the marker: it is
// the user's own field, not the patcher's.
type JournalStatus struct {
	WriteToken string `json:"writeToken,omitempty"`
}

type Journal struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Status JournalStatus `json:"status,omitempty"`
}

func (j *Journal) DeepCopyObject() runtime.Object { return j }
