package settle

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// checked is what the values of a read say about a write: a field the
// write sets holding another value (differs), a field the write removes
// still held (held), a field the write sets that the read lacks (pruned,
// or removed by a later write: missing).
type checked struct {
	differs, held, missing string
}

// check compares the values w sets and removes with v's.
func (w Write) check(v Version) checked {
	var c checked
	for _, l := range w.Sets {
		if l.Unchecked {
			continue
		}
		got, ok := lookup(v.Object, l.Path)
		switch {
		case !ok && c.missing == "":
			c.missing = l.Path.String()
		case ok && c.differs == "" && !reflect.DeepEqual(l.Value, got):
			c.differs = l.Path.String()
		}
	}
	for _, r := range w.Removals {
		if _, ok := lookup(v.Object, r); ok && c.held == "" {
			c.held = r.String()
		}
	}
	return c
}

func field(at fieldpath.Path, name string) fieldpath.Path {
	n := name
	return append(slices.Clip(at), fieldpath.PathElement{FieldName: &n})
}

// lookup finds the value at p in v; a member that holds null is found
// (its value nil): a JSON Patch stores nulls, and a removed member that
// still holds null is still there.
func lookup(v any, p fieldpath.Path) (any, bool) {
	for _, pe := range p {
		switch {
		case pe.FieldName != nil:
			m, ok := v.(map[string]any)
			if !ok {
				return nil, false
			}
			if v, ok = m[*pe.FieldName]; !ok {
				return nil, false // a member holding null is there
			}
		case pe.Key != nil:
			l, _ := v.([]any)
			v = nil
			for _, it := range l {
				m, _ := it.(map[string]any)
				match := m != nil
				for _, f := range *pe.Key {
					if !sameScalar(m[f.Name], f.Value.Unstructured()) {
						match = false
					}
				}
				if match {
					v = it
					break
				}
			}
			if v == nil {
				return nil, false
			}
		case pe.Index != nil:
			l, _ := v.([]any)
			if *pe.Index < 0 || *pe.Index >= len(l) {
				return nil, false
			}
			v = l[*pe.Index]
		case pe.Value != nil:
			l, _ := v.([]any)
			want := (*pe.Value).Unstructured()
			v = nil
			for _, it := range l {
				if sameScalar(it, want) {
					v = it
					break
				}
			}
			if v == nil {
				return nil, false
			}
		default:
			return nil, false
		}
	}
	return v, true
}

// sameScalar compares a decoded JSON scalar (numbers as json.Number) with
// a managedFields key value.
func sameScalar(a, b any) bool {
	if n, ok := a.(json.Number); ok {
		return n.String() == fmt.Sprint(b)
	}
	return fmt.Sprint(a) == fmt.Sprint(b) && a != nil
}

// ignored: metadata.resourceVersion and metadata.managedFields, which every
// write changes, and apiVersion and kind, which a typed read leaves empty.
func ignored(at fieldpath.Path, k string) bool {
	switch len(at) {
	case 0:
		return k == "apiVersion" || k == "kind"
	case 1:
		return at[0].FieldName != nil && *at[0].FieldName == "metadata" && (k == "resourceVersion" || k == "managedFields")
	}
	return false
}
