/*
Copyright 2026 The statuspatch Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// FleetSpec is the desired state of a Fleet.
type FleetSpec struct {
	// Description is free text.
	// +optional
	Description string `json:"description,omitempty"`

	// MinCompleted is how many member rollouts must have completed for the
	// Fleet to be Ready.
	// +kubebuilder:validation:Minimum=0
	// +optional
	MinCompleted int32 `json:"minCompleted,omitempty"`
}

// FleetConditionType is the type of a FleetCondition.
type FleetConditionType string

// The condition types of a Fleet.
const (
	// FleetReady is True when at least spec.minCompleted rollouts completed.
	FleetReady FleetConditionType = "Ready"
)

// FleetCondition is the Fleet's own condition type (not metav1.Condition),
// as many existing APIs have: the generated patcher has no condition helpers
// for it and the controller sets it through Status().
type FleetCondition struct {
	// Type of the condition.
	Type FleetConditionType `json:"type"`

	// Status of the condition: True, False or Unknown.
	// +kubebuilder:validation:Enum=True;False;Unknown
	Status metav1.ConditionStatus `json:"status"`

	// Reason is a CamelCase reason for the last transition.
	// +optional
	Reason string `json:"reason,omitempty"`

	// Message is a human-readable explanation.
	// +optional
	Message string `json:"message,omitempty"`

	// LastTransitionTime is when Status last changed.
	// +optional
	LastTransitionTime metav1.Time `json:"lastTransitionTime,omitempty"`
}

// FleetMember is a completed Rollout that reported to the Fleet. Members
// are written by the Rollout controller, one entry per rollout, from many
// reconciles at once: the many-writers case.
type FleetMember struct {
	// Rollout is the member's namespace/name.
	Rollout string `json:"rollout"`

	// PlanID is the ID of the plan the rollout completed.
	PlanID string `json:"planID"`

	// Version is the version it rolled out.
	// +optional
	Version string `json:"version,omitempty"`
}

// FleetStatus is the observed state of a Fleet.
type FleetStatus struct {
	// ObservedGeneration is the spec generation the status describes.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// Members are the rollouts that completed, one entry each.
	// +listType=map
	// +listMapKey=rollout
	// +optional
	Members []FleetMember `json:"members,omitempty"`

	// CompletedRollouts is len(members), as the Fleet controller last counted.
	// +optional
	CompletedRollouts int32 `json:"completedRollouts,omitempty"`

	// Conditions of the Fleet.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []FleetCondition `json:"conditions,omitempty"`
}

// Fleet groups rollouts across namespaces. It is cluster-scoped.
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Cluster
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Completed",type=integer,JSONPath=`.status.completedRollouts`
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type Fleet struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   FleetSpec   `json:"spec,omitempty"`
	Status FleetStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// FleetList contains a list of Fleet.
type FleetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Fleet `json:"items"`
}

func init() {
	SchemeBuilder.Register(&Fleet{}, &FleetList{})
}
