// Package v1 holds the kinds of the generated field-by-field status diff's
// tests: a status of every JSON shape (fuzzed against the reflection path)
// and a Deployment-shaped kind for the Flush benchmarks.
// +kubebuilder:object:generate=true
// +groupName=fielddiff.goldens.example.com
package v1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/scheme"
)

var (
	// GroupVersion is group version used to register these objects.
	GroupVersion = schema.GroupVersion{Group: "fielddiff.goldens.example.com", Version: "v1"}

	// SchemeBuilder is used to add go types to the GroupVersionKind scheme.
	SchemeBuilder = &scheme.Builder{GroupVersion: GroupVersion}

	// AddToScheme adds the types in this group-version to the given scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

func init() {
	SchemeBuilder.Register(&Sample{}, &SampleList{}, &Deploy{}, &DeployList{}, &Tree{}, &TreeList{})
}
