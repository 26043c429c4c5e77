package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Node is a recursive type: its generated equality function compares the
// way back into Node with patcher.DeepEqual.
type Node struct {
	Name     string `json:"name"`
	Children []Node `json:"children,omitempty"`
	Next     *Node  `json:"next,omitempty"`
}

// TreeStatus holds a recursive type, an interface inside a struct
// (runtime.RawExtension.Object) and a field of an unexported type.
type TreeStatus struct {
	Root   *Node                 `json:"root,omitempty"`
	Forest map[string][]Node     `json:"forest,omitempty"`
	Raw    *runtime.RawExtension `json:"raw,omitempty"`
	Local  local                 `json:"local"`
}

type local struct {
	Count int32 `json:"count"`
}

// Tree is the kind of TreeStatus.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Tree struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Status TreeStatus `json:"status,omitempty"`
}

// TreeList contains a list of Tree.
// +kubebuilder:object:root=true
type TreeList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Tree `json:"items"`
}

// equalNode is declared here, so the generated equality function for Node
// takes the next free name, equalNode2.
var equalNode = "taken"
