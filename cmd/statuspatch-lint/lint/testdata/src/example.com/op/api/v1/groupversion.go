package v1

import "k8s.io/apimachinery/pkg/runtime/schema"

// GroupVersion is the API's group and version, as kubebuilder scaffolds it.
var GroupVersion = schema.GroupVersion{Group: "example.com", Version: "v1"}
