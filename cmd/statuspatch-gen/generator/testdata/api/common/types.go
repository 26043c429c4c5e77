// Package common holds status building blocks shared by API packages. It has
// no kinds, so it gets no generated patchers.
// +kubebuilder:object:generate=true
package common

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// CommonStatus is embedded (inlined) in statuses.
type CommonStatus struct {
	ObservedGeneration int64              `json:"observedGeneration,omitempty"`
	Conditions         []metav1.Condition `json:"conditions,omitempty"`
}

// Conditioned holds conditions only; statuses embed it by pointer.
type Conditioned struct {
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}
