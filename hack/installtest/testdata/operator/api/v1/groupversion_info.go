// Package v1 is the widgets.example.com/v1 API group of the install test's
// operator, laid out as kubebuilder lays out a new API.
// +kubebuilder:object:generate=true
// +groupName=widgets.example.com
package v1

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	// SchemeGroupVersion is the group and version of these kinds; apply
	// configuration generators (controller-gen applyconfiguration) use this
	// name, as kubebuilder's scaffold has it.
	SchemeGroupVersion = schema.GroupVersion{Group: "widgets.example.com", Version: "v1"}

	// GroupVersion is an alias for SchemeGroupVersion.
	GroupVersion = SchemeGroupVersion
)

// AddToScheme adds the kinds of this group version to a scheme.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &Widget{}, &WidgetList{})
	metaAddToGroupVersion(s)
	return nil
}
