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

// RolloutSpec is the desired state of a Rollout.
type RolloutSpec struct {
	// Version is what this rollout rolls out.
	// +kubebuilder:validation:MinLength=1
	Version string `json:"version"`

	// Steps is the number of steps of the plan.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=20
	// +kubebuilder:default=3
	// +optional
	Steps int32 `json:"steps,omitempty"`

	// Fleet names the cluster-scoped Fleet this rollout reports to once it
	// has completed.
	// +optional
	Fleet string `json:"fleet,omitempty"`
}

// RolloutPlan is built once per spec generation and then advanced step by
// step. Two plans for the same generation is the bug statuspatch prevents:
// whoever built the overwritten one acted on a plan that no longer exists.
type RolloutPlan struct {
	// ID identifies the plan; every build makes a new one.
	ID string `json:"id"`

	// Generation is the spec generation the plan was built for.
	Generation int64 `json:"generation"`

	// Version is the spec version the plan rolls out.
	Version string `json:"version"`

	// Steps are the plan's steps, in order.
	// +listType=atomic
	Steps []string `json:"steps"`
}

// RolloutPhase is a coarse summary of a Rollout's progress.
// +kubebuilder:validation:Enum=Planning;Progressing;Completed
type RolloutPhase string

// The phases of a Rollout.
const (
	RolloutPlanning    RolloutPhase = "Planning"
	RolloutProgressing RolloutPhase = "Progressing"
	RolloutCompleted   RolloutPhase = "Completed"
)

// RolloutStatus is the observed state of a Rollout.
type RolloutStatus struct {
	// ObservedGeneration is the spec generation the status describes.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// Phase summarises the progress.
	// +optional
	Phase RolloutPhase `json:"phase,omitempty"`

	// Plan is the current plan, built once per spec generation.
	// +optional
	Plan *RolloutPlan `json:"plan,omitempty"`

	// CompletedSteps is how many steps of the plan are done.
	// +optional
	CompletedSteps int32 `json:"completedSteps,omitempty"`

	// Conditions are the standard conditions: Progressing and Ready.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// Rollout rolls a version out in planned steps.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Version",type=string,JSONPath=`.spec.version`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Plan",type=string,JSONPath=`.status.plan.id`
// +kubebuilder:printcolumn:name="Done",type=integer,JSONPath=`.status.completedSteps`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type Rollout struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   RolloutSpec   `json:"spec"`
	Status RolloutStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// RolloutList contains a list of Rollout.
type RolloutList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Rollout `json:"items"`
}

func init() {
	SchemeBuilder.Register(&Rollout{}, &RolloutList{})
}
