package testenv

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// SchemaDriftError lists, per kind, the status fields of the Go type that
// the installed CRD's status schema lacks: the API server prunes them from
// every write, and a controller that writes them writes again on every
// reconcile.
type SchemaDriftError struct {
	// Missing maps "Kind group/version" to JSON paths such as "status.plan".
	Missing map[string][]string
}

func (e *SchemaDriftError) Error() string {
	kinds := make([]string, 0, len(e.Missing))
	for k := range e.Missing {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%s: %s", k, strings.Join(e.Missing[k], ", "))
	}
	return "testenv: the CRD status schema lacks fields of the Go status type (the API server would prune them from every write; regenerate the CRD): " +
		strings.Join(parts, "; ")
}

// CheckStatusSchema checks, for every served version of every CRD whose Go
// type is registered in scheme, that each field of the Go type's Status (by
// JSON name, recursively through structs, pointers, slices and maps) exists
// in the CRD's status schema. It returns a *SchemaDriftError naming every
// missing path, or nil. CRDs whose kind is not in scheme, and versions
// without a schema, are skipped.
func CheckStatusSchema(scheme *runtime.Scheme, crds ...*apiextensionsv1.CustomResourceDefinition) error {
	if scheme == nil {
		return nil
	}
	missing := map[string][]string{}
	for _, crd := range crds {
		if crd == nil {
			continue
		}
		for _, v := range crd.Spec.Versions {
			gvk := schema.GroupVersionKind{Group: crd.Spec.Group, Version: v.Name, Kind: crd.Spec.Names.Kind}
			t, ok := scheme.AllKnownTypes()[gvk]
			if !ok || v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
				continue
			}
			f, ok := t.FieldByName("Status")
			if !ok {
				continue
			}
			root := v.Schema.OpenAPIV3Schema
			s, ok := root.Properties["status"]
			if !ok {
				if !preservesUnknown(root) { // a root that keeps unknown fields prunes no status
					missing[gvk.Kind+" "+gvk.GroupVersion().String()] = []string{"status"}
				}
				continue
			}
			var paths []string
			walkSchema(f.Type, &s, "status", map[reflect.Type]bool{}, &paths)
			if len(paths) > 0 {
				slices.Sort(paths)
				missing[gvk.Kind+" "+gvk.GroupVersion().String()] = paths
			}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return &SchemaDriftError{Missing: missing}
}

var (
	jsonMarshaler = reflect.TypeOf((*json.Marshaler)(nil)).Elem()
	textMarshaler = reflect.TypeOf((*encoding.TextMarshaler)(nil)).Elem()
)

// walkSchema appends the paths of t's JSON fields that s lacks.
func walkSchema(t reflect.Type, s *apiextensionsv1.JSONSchemaProps, path string, seen map[reflect.Type]bool, out *[]string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if s == nil || preservesUnknown(s) || isLeaf(t) {
		return
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if s.Items != nil && s.Items.Schema != nil {
			walkSchema(t.Elem(), s.Items.Schema, path+"[]", seen, out)
		}
	case reflect.Map:
		if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
			walkSchema(t.Elem(), s.AdditionalProperties.Schema, path+"{}", seen, out)
		}
	case reflect.Struct:
		if seen[t] {
			return
		}
		seen[t] = true
		defer delete(seen, t)
		for _, f := range jsonFields(t) {
			child, ok := s.Properties[f.name]
			if !ok {
				*out = append(*out, path+"."+f.name)
				continue
			}
			walkSchema(f.typ, &child, path+"."+f.name, seen, out)
		}
	}
}

type jsonField struct {
	name string
	typ  reflect.Type
}

// jsonFields lists the JSON object fields of struct t, with inline and
// untagged embedded structs flattened, as encoding/json does.
func jsonFields(t reflect.Type) []jsonField {
	var out []jsonField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" && opts == "" {
			continue
		}
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			out = append(out, jsonFields(ft)...)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, jsonField{name: name, typ: f.Type})
	}
	return out
}

// isLeaf reports whether t marshals itself (metav1.Time, resource.Quantity,
// intstr.IntOrString, RawExtension...) or is not a container: its schema is
// not checked field by field.
func isLeaf(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	if t.Implements(jsonMarshaler) || pt.Implements(jsonMarshaler) || t.Implements(textMarshaler) || pt.Implements(textMarshaler) {
		return true
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Slice, reflect.Array, reflect.Map:
		return t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 // []byte is a string
	}
	return true
}

func preservesUnknown(s *apiextensionsv1.JSONSchemaProps) bool {
	return s.XPreserveUnknownFields != nil && *s.XPreserveUnknownFields
}
