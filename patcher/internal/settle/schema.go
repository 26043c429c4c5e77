package settle

import (
	"encoding/json"
	"reflect"
)

// Schema is the structural schema the server publishes for the object's
// kind and version (a CRD version's openAPIV3Schema), as decoded JSON. It
// explains the differences between what a write sent and what the server
// stored: the fields it prunes (not in the schema, and not under
// x-kubernetes-preserve-unknown-fields), the defaults it declares, and how
// each list compares (x-kubernetes-list-type: atomic, set or map, with
// x-kubernetes-list-map-keys). A nil *Schema is a schema that could not be
// read: no difference is explained, and a version that differs from the
// base plus the write only where a schema could explain it is Unknown.
type Schema struct {
	root map[string]any
}

// NewSchema is the schema whose root node is openAPIV3Schema; nil for a
// nil root.
func NewSchema(openAPIV3Schema map[string]any) *Schema {
	if openAPIV3Schema == nil {
		return nil
	}
	return &Schema{root: openAPIV3Schema}
}

// node is one node of a schema, or nil past the schema's end.
type node map[string]any

func (n node) flag(name string) bool {
	b, _ := n[name].(bool)
	return b
}

// field is the node of the member name of an object node: a declared
// property, else additionalProperties; known is false when the server
// prunes the member (neither, and no x-kubernetes-preserve-unknown-fields).
// A member kept without a schema of its own has a nil node.
func (n node) field(name string) (child node, known bool) {
	if n == nil {
		return nil, true // below a preserved field: kept as is
	}
	if props, ok := n["properties"].(map[string]any); ok {
		if c, ok := props[name].(map[string]any); ok {
			return c, true
		}
	}
	switch ap := n["additionalProperties"].(type) {
	case map[string]any:
		return ap, true
	case bool:
		if ap {
			return nil, true
		}
	}
	return nil, n.flag("x-kubernetes-preserve-unknown-fields")
}

// items is the node of a list node's items.
func (n node) items() node {
	if n == nil {
		return nil
	}
	c, _ := n["items"].(map[string]any)
	return c
}

// defaulted reports whether the server fills the member name of an object
// node with v when it is absent: the member's schema declares v as its
// default.
func (n node) defaulted(name string, v any) bool {
	if n == nil {
		return false
	}
	c, known := n.field(name)
	if !known || c == nil {
		return false
	}
	d, ok := c["default"]
	if !ok {
		return false
	}
	// The schema's default and v may be decoded differently (float64 and
	// json.Number): compare their JSON.
	a, aerr := json.Marshal(d)
	b, berr := json.Marshal(v)
	if aerr != nil || berr != nil {
		return false
	}
	da, erra := DecodeJSON(a)
	db, errb := DecodeJSON(b)
	return erra == nil && errb == nil && reflect.DeepEqual(da, db)
}

// listType is the list's declared type ("atomic" when none is declared,
// as for every CRD list) and, for a map list, its keys.
func (n node) listType() (string, []string) {
	if n == nil {
		return "atomic", nil
	}
	t, _ := n["x-kubernetes-list-type"].(string)
	switch t {
	case "set":
		return t, nil
	case "map":
		var keys []string
		ks, _ := n["x-kubernetes-list-map-keys"].([]any)
		for _, k := range ks {
			if s, ok := k.(string); ok {
				keys = append(keys, s)
			}
		}
		if len(keys) > 0 {
			return t, keys
		}
	}
	return "atomic", nil
}
