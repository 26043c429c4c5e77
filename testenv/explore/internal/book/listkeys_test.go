package book

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
)

// The book reads a kind's map lists from the CustomResourceDefinition the
// server serves, for the version asked; a kind without one (a built-in
// kind, or a CRD the server does not answer for) has none known.
func TestBookListKeysFromTheCRD(t *testing.T) {
	widget := schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}
	gadget := schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Gadget"}
	mapper := meta.NewDefaultRESTMapper(nil)
	mapper.Add(widget, meta.RESTScopeNamespace)
	mapper.Add(gadget, meta.RESTScopeNamespace)
	crd := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "widgets.example.com"},
		"spec": map[string]any{"versions": []any{
			map[string]any{"name": "v1beta1", "schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object"}}},
			map[string]any{"name": "v1", "schema": map[string]any{"openAPIV3Schema": conditionsSchema()}},
		}},
	}}
	c := fake.NewClientBuilder().WithScheme(runtime.NewScheme()).WithRESTMapper(mapper).WithObjects(crd).Build()
	b := New(c, nil)
	keys := b.ListKeys(widget)
	if keys == nil {
		t.Fatal("Widget: no map lists known")
	}
	if ks, ok := keys([]string{"status", "conditions"}); !ok || strings.Join(ks, ",") != "type" {
		t.Errorf("Widget's status.conditions: keys %v, %t; want type", ks, ok)
	}
	if b.ListKeys(gadget) != nil {
		t.Error("Gadget, without a CRD: map lists known")
	}
	if b.ListKeys(schema.GroupVersionKind{Version: "v1", Kind: "Pod"}) != nil {
		t.Error("Pod, a built-in kind: map lists known")
	}
}
