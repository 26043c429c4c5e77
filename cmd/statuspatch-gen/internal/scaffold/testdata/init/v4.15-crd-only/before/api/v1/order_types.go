package v1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// OrderSpec defines the desired state of Order.
type OrderSpec struct {
	Items int32 `json:"items,omitempty"`
	// Customer is a reference, not a kind the controller reads.
	Customer *corev1.ObjectReference `json:"customer,omitempty"`
}

// OrderStatus defines the observed state of Order.
type OrderStatus struct {
	ReadyItems int32              `json:"readyItems,omitempty"`
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// Order is the Schema for the orders API.
type Order struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   OrderSpec   `json:"spec"`
	Status OrderStatus `json:"status,omitempty"`
}
