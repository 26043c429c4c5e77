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
// kind, or a CRD the server does not answer for) has none known, and for
// a CRD's kind the book says why (SchemaUnread).
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
	if b.ListKeys(gadget) != nil || b.SchemaUnread(gadget) == nil || !strings.Contains(b.SchemaUnread(gadget).Error(), "gadgets.example.com") {
		t.Errorf("Gadget, without a CRD: map lists known, or not said why (%v)", b.SchemaUnread(gadget))
	}
	old := widget
	old.Version = "v1alpha1"
	mapper.Add(old, meta.RESTScopeNamespace)
	if b.ListKeys(old) != nil || b.SchemaUnread(old) == nil || !strings.Contains(b.SchemaUnread(old).Error(), "no version v1alpha1") {
		t.Errorf("Widget v1alpha1, a version its CRD lacks: map lists known, or not said why (%v)", b.SchemaUnread(old))
	}
	if b.SchemaUnread(widget) != nil {
		t.Errorf("Widget: %v, want its schema read", b.SchemaUnread(widget))
	}
	pod := schema.GroupVersionKind{Version: "v1", Kind: "Pod"}
	if b.ListKeys(pod) != nil || b.SchemaUnread(pod) != nil {
		t.Errorf("Pod, a built-in kind: map lists known, or its schema said unread (%v)", b.SchemaUnread(pod))
	}
}
