package book

import (
	"context"
	"fmt"
	"reflect"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// How the server compares a list: a list whose schema says
// x-kubernetes-list-type: map is a map keyed by its items'
// x-kubernetes-list-map-keys, its order no decision (metav1.Condition
// lists keyed by type). Only the schema the server serves says so: where
// it is not known, a list is one ordered value, as before.

// ItemsField is the field name ListKeys takes for a list's items: the
// path of a list inside the items of status.conditions is
// status, conditions, ItemsField, name.
const ItemsField = "[]"

// ListKeys is the keys of the map list at path (field names, ItemsField
// for a list's items); ok is false where the schema is not known, or the
// list is not a map list. A nil ListKeys knows no schema.
type ListKeys func(path []string) (keys []string, ok bool)

// SchemaListKeys is the ListKeys of a structural schema (a CRD version's
// openAPIV3Schema, decoded JSON); nil for a nil schema.
func SchemaListKeys(openAPIV3Schema map[string]any) ListKeys {
	if openAPIV3Schema == nil {
		return nil
	}
	return func(path []string) ([]string, bool) {
		n := openAPIV3Schema
		for _, f := range path {
			var c map[string]any
			if f == ItemsField {
				c, _ = n["items"].(map[string]any)
			} else if props, ok := n["properties"].(map[string]any); ok && props[f] != nil {
				c, _ = props[f].(map[string]any)
			} else {
				c, _ = n["additionalProperties"].(map[string]any)
			}
			if c == nil {
				return nil, false
			}
			n = c
		}
		if t, _ := n["x-kubernetes-list-type"].(string); t != "map" {
			return nil, false
		}
		ks, _ := n["x-kubernetes-list-map-keys"].([]any)
		var keys []string
		for _, k := range ks {
			s, ok := k.(string)
			if !ok {
				return nil, false
			}
			keys = append(keys, s)
		}
		return keys, len(keys) > 0
	}
}

// ListKeys is the ListKeys of gvk as the server serves it: read from its
// CustomResourceDefinition's version gvk.Version, once per book; nil (no
// schema known) for a built-in kind, or where the schema cannot be read
// (SchemaUnread says why).
func (b *Book) ListKeys(gvk schema.GroupVersionKind) ListKeys {
	if lk, ok := b.lists[gvk]; ok {
		return lk
	}
	if b.lists == nil {
		b.lists, b.unread = map[schema.GroupVersionKind]ListKeys{}, map[schema.GroupVersionKind]error{}
	}
	lk, err := b.crdListKeys(gvk)
	if err != nil {
		lk = nil // Unknown: strict comparison, which a verdict must say
		b.unread[gvk] = err
	}
	b.lists[gvk] = lk
	return lk
}

// SchemaUnread is why gvk's schema, which ListKeys read, could not be
// read (its CustomResourceDefinition, or the version's schema in it):
// its lists are compared in order, whether or not the server keys them,
// so a verdict that rests on a list's order is Unknown. nil where it was
// read, for a built-in kind, or before ListKeys.
func (b *Book) SchemaUnread(gvk schema.GroupVersionKind) error { return b.unread[gvk] }

func (b *Book) crdListKeys(gvk schema.GroupVersionKind) (ListKeys, error) {
	if b.server == nil || gvk.Group == "" {
		return nil, nil
	}
	m, err := b.server.RESTMapper().RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		return nil, fmt.Errorf("explore: mapping %s: %w", gvk, err)
	}
	crd := &unstructured.Unstructured{}
	crd.SetGroupVersionKind(schema.GroupVersionKind{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	name := m.Resource.Resource + "." + gvk.Group
	if err := b.server.Get(ctx, types.NamespacedName{Name: name}, crd); err != nil {
		return nil, fmt.Errorf("explore: reading the CustomResourceDefinition %s: %w", name, err)
	}
	versions, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
	for _, v := range versions {
		vm, _ := v.(map[string]any)
		if vm["name"] != gvk.Version {
			continue
		}
		s, _, _ := unstructured.NestedMap(vm, "schema", "openAPIV3Schema")
		if s == nil {
			return nil, fmt.Errorf("explore: the CustomResourceDefinition %s has no schema for version %s", name, gvk.Version)
		}
		return SchemaListKeys(s), nil
	}
	return nil, fmt.Errorf("explore: the CustomResourceDefinition %s has no version %s", name, gvk.Version)
}

// Difference is how two values differ.
type Difference int

const (
	Same      Difference = iota
	TimesOnly            // only in time-like values (timeLike), on both sides
	OrderOnly            // a list in another order, its items the same but for times (CompareAnyOrder)
	Other                // in anything else
)

// CompareAnyOrder is Compare, but two lists of the same items in
// another order, each item matched to one of the other list's, the same
// or differing only in time-like values (Compare), differ in OrderOnly:
// an atomic list (a schema declaring no map keys, or none known) whose
// order is all that differs, with or without times inside its items.
// Only the value's own order counts: a list in an item or member is
// compared in order (Compare). "The same but for times" is an
// equivalence, so taking the first match of each item is exact.
func CompareAnyOrder(path []string, a, b any, keys ListKeys) Difference {
	d := Compare(path, a, b, keys)
	la, aok := a.([]any)
	lb, bok := b.([]any)
	if d != Other || !aok || !bok || len(la) != len(lb) {
		return d
	}
	items := with(path, ItemsField)
	used := make([]bool, len(lb))
	for _, va := range la {
		j := -1
		for k, vb := range lb {
			if !used[k] && Compare(items, va, vb, keys) <= TimesOnly {
				j = k
				break
			}
		}
		if j < 0 {
			return Other
		}
		used[j] = true
	}
	return OrderOnly
}

// Compare says how a and b, the values at path (field names), differ:
// maps member by member, a map list (keys) item by item by its keys,
// whatever its order, any other list item by item in order; absent and
// empty values are the same.
func Compare(path []string, a, b any, keys ListKeys) Difference {
	if Zero(a) && Zero(b) {
		return Same
	}
	ma, aok := a.(map[string]any)
	mb, bok := b.(map[string]any)
	if aok || bok {
		if (!aok && !Zero(a)) || (!bok && !Zero(b)) {
			return Other
		}
		d := Same
		for k, va := range ma {
			d = max(d, Compare(with(path, k), va, mb[k], keys))
		}
		for k, vb := range mb {
			if _, ok := ma[k]; !ok {
				d = max(d, Compare(with(path, k), nil, vb, keys))
			}
		}
		return d
	}
	la, aok := a.([]any)
	lb, bok := b.([]any)
	if aok || bok {
		if (!aok && !Zero(a)) || (!bok && !Zero(b)) {
			return Other
		}
		return compareLists(path, la, lb, keys)
	}
	if reflect.DeepEqual(a, b) {
		return Same
	}
	if timeLike(a) && timeLike(b) {
		return TimesOnly
	}
	return Other
}

func compareLists(path []string, a, b []any, keys ListKeys) Difference {
	items := with(path, ItemsField)
	if keys != nil {
		if ks, ok := keys(path); ok {
			ia, aok := byKey(a, ks)
			ib, bok := byKey(b, ks)
			if aok && bok {
				if len(ia) != len(ib) {
					return Other
				}
				d := Same
				for k, va := range ia {
					vb, ok := ib[k]
					if !ok {
						return Other
					}
					d = max(d, Compare(items, va, vb, keys))
				}
				return d
			}
		}
	}
	if len(a) != len(b) {
		return Other
	}
	d := Same
	for i := range a {
		d = max(d, Compare(items, a[i], b[i], keys))
	}
	return d
}

// byKey indexes a map list's items by their keys' values; false when an
// item is no map, lacks a key or repeats another's keys (the server
// refuses such a list: compared in order, as before).
func byKey(l []any, keys []string) (map[string]any, bool) {
	out := make(map[string]any, len(l))
	for _, it := range l {
		m, ok := it.(map[string]any)
		if !ok {
			return nil, false
		}
		var id []any
		for _, k := range keys {
			v, ok := m[k]
			if !ok {
				return nil, false
			}
			id = append(id, v)
		}
		s := fmt.Sprintf("%#v", id)
		if _, dup := out[s]; dup {
			return nil, false
		}
		out[s] = it
	}
	return out, true
}
