package settle

import (
	"encoding/json"
	"maps"
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
	// storage is the storage version's schema (nil: the version read is
	// the storage version, or it was not given): every write is pruned to
	// it too before it is stored.
	storage map[string]any
	// StorageVersion names the storage version ("" when not known).
	StorageVersion string
	// CRD names the CustomResourceDefinition, for messages ("": none).
	CRD string
}

// WithStorage is s with the storage version's schema, named version, to
// which the server prunes every write before it stores it (conversion
// None: the same object in another version); its defaults are s's too
// (NewSchema). Nil for a nil s.
func (s *Schema) WithStorage(version string, storage map[string]any) *Schema {
	if s == nil || storage == nil {
		return s
	}
	return &Schema{root: withDefaults(s.root, storage), storage: storage, StorageVersion: version, CRD: s.CRD}
}

// keeps reports whether both the version read and the storage version
// keep the field at path (each declares it, or keeps unknown fields
// there). A nil s says nothing (false).
func (s *Schema) keeps(path []string) bool {
	if s == nil {
		return false
	}
	for _, root := range []map[string]any{s.root, s.storage} {
		if root == nil {
			continue
		}
		n := node(root)
		for _, name := range path {
			child, known := n.field(name)
			if !known {
				return false
			}
			n = child
		}
	}
	return true
}

// prunedBy names the version of s that prunes the field at path: "the
// storage version <name>" or "the version read" ("" when both keep it,
// or s is nil).
func (s *Schema) prunedBy(path []string) string {
	if s == nil || s.keeps(path) {
		return ""
	}
	if (&Schema{root: s.root}).keeps(path) {
		return "its storage version " + s.StorageVersion
	}
	return "the version the patcher writes"
}

// NewSchema is the schema whose root node is openAPIV3Schema; nil for a
// nil root. others are the schemas of the kind's other versions whose
// defaults the server applies too (the storage version's: the server
// defaults what it decodes from etcd with it, before converting to the
// version read): a member the root does not default takes the default one
// of them declares at the same place.
func NewSchema(openAPIV3Schema map[string]any, others ...map[string]any) *Schema {
	if openAPIV3Schema == nil {
		return nil
	}
	root := openAPIV3Schema
	for _, o := range others {
		if o != nil {
			root = withDefaults(root, o)
		}
	}
	return &Schema{root: root}
}

// withDefaults is a copy of n with the defaults of o (a schema of another
// version of the kind) that n lacks, member by member.
func withDefaults(n, o map[string]any) map[string]any {
	out := maps.Clone(n)
	if _, ok := out["default"]; !ok {
		if d, ok := o["default"]; ok {
			out["default"] = d
		}
	}
	np, _ := n["properties"].(map[string]any)
	op, _ := o["properties"].(map[string]any)
	if np != nil && op != nil {
		props := maps.Clone(np)
		for name, c := range np {
			cm, _ := c.(map[string]any)
			om, _ := op[name].(map[string]any)
			if cm != nil && om != nil {
				props[name] = withDefaults(cm, om)
			}
		}
		out["properties"] = props
	}
	for _, k := range []string{"items", "additionalProperties"} {
		nc, _ := n[k].(map[string]any)
		oc, _ := o[k].(map[string]any)
		if nc != nil && oc != nil {
			out[k] = withDefaults(nc, oc)
		}
	}
	return out
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

// defaultValue is the default the node declares, decoded with exact
// numbers (DecodeJSON), and whether it declares one.
func (n node) defaultValue() (any, bool) {
	if n == nil {
		return nil, false
	}
	d, ok := n["default"]
	if !ok {
		return nil, false
	}
	b, err := json.Marshal(d)
	if err != nil {
		return nil, false
	}
	v, err := DecodeJSON(b)
	return v, err == nil
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
