// Package v1 is a small API group, testing.statuspatch.dev/v1, used by the
// tests of testenv, of the explorer and of the patcher integration. It is
// laid out like a kubebuilder API package: types with markers, a generated
// zz_generated.deepcopy.go, and CRD manifests generated into
// testenv/internal/testapi/crd (which embeds them). It lives in the root
// module, which every other module requires, so that the explorer's
// module, which must not require testenv, can use it in its tests.
//
// +kubebuilder:object:generate=true
// +kubebuilder:ac:generate=true
// +kubebuilder:ac:output:package=../applyconfiguration
// +groupName=testing.statuspatch.dev
package v1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/scheme"
)

//go:generate ../../../bin/controller-gen object paths=.
//go:generate ../../../bin/controller-gen crd paths=. output:crd:artifacts:config=../../../testenv/internal/testapi/crd
//go:generate ../../../bin/controller-gen applyconfiguration paths=.

var (
	// GroupVersion is the group and version of the objects in this package.
	GroupVersion = schema.GroupVersion{Group: "testing.statuspatch.dev", Version: "v1"}

	// SchemeGroupVersion is GroupVersion under the name controller-gen's
	// applyconfiguration output (../applyconfiguration) refers to.
	SchemeGroupVersion = GroupVersion

	// SchemeBuilder adds the types of this package to a scheme.
	SchemeBuilder = &scheme.Builder{GroupVersion: GroupVersion}

	// AddToScheme adds the types of this package to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)
