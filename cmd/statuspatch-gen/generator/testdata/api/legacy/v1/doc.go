// Package v1 is written for code-generator (client-gen, deepcopy-gen) rather
// than kubebuilder: kinds carry +genclient or the deepcopy-gen interfaces
// marker instead of +kubebuilder:object:root.
// +k8s:deepcopy-gen=package
// +groupName=legacy.goldens.example.com
package v1
