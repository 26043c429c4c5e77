// Package unstructured is a minimal stub of
// k8s.io/apimachinery/pkg/apis/meta/v1/unstructured for analysistest.
package unstructured

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

type Unstructured struct {
	Object map[string]interface{}
}

func (u *Unstructured) DeepCopyObject() runtime.Object    { return u }
func (u *Unstructured) GetName() string                   { return "" }
func (u *Unstructured) GetNamespace() string              { return "" }
func (u *Unstructured) SetName(name string)               {}
func (u *Unstructured) SetNamespace(namespace string)     {}
func (u *Unstructured) GetResourceVersion() string        { return "" }
func (u *Unstructured) SetResourceVersion(version string) {}
func (u *Unstructured) GetFinalizers() []string           { return nil }
func (u *Unstructured) SetFinalizers(finalizers []string) {}
func (u *Unstructured) SetAPIVersion(version string)      {}
func (u *Unstructured) SetKind(kind string)               {}

func (u *Unstructured) SetGroupVersionKind(gvk schema.GroupVersionKind) {}

func SetNestedField(obj map[string]interface{}, value interface{}, fields ...string) error {
	return nil
}

func SetNestedStringSlice(obj map[string]interface{}, value []string, fields ...string) error {
	return nil
}

func RemoveNestedField(obj map[string]interface{}, fields ...string) {}

// UnstructuredJSONScheme encodes a typed object as encoding/json does.
var UnstructuredJSONScheme runtime.Codec = jsonScheme{}

type jsonScheme struct{}

func (jsonScheme) Encode(obj runtime.Object, w interface{ Write([]byte) (int, error) }) error {
	return nil
}
