package book

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// KeyOfApply names the object a server-side apply configuration is for,
// by its apiVersion, kind and metadata, and returns the configuration as
// JSON (what is sent).
func KeyOfApply(ac runtime.ApplyConfiguration) (Key, []byte, error) {
	if ac == nil || isNilPointer(ac) {
		return Key{}, nil, errors.New("explore: Apply of a nil apply configuration")
	}
	data, err := json.Marshal(ac)
	if err != nil {
		return Key{}, nil, fmt.Errorf("explore: Apply of %T: %w", ac, err)
	}
	var head struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct {
			Name      string `json:"name"`
			Namespace string `json:"namespace"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return Key{}, nil, fmt.Errorf("explore: Apply of %T: %w", ac, err)
	}
	if head.APIVersion == "" || head.Kind == "" || head.Metadata.Name == "" {
		return Key{}, nil, fmt.Errorf("explore: Apply of %T: apiVersion %q, kind %q, name %q: an apply configuration needs all three", ac, head.APIVersion, head.Kind, head.Metadata.Name)
	}
	gvk := schema.FromAPIVersionAndKind(head.APIVersion, head.Kind)
	return Key{GVK: gvk, NN: client.ObjectKey{Namespace: head.Metadata.Namespace, Name: head.Metadata.Name}}, data, nil
}

func isNilPointer(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}
