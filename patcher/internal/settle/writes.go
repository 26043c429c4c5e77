package settle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// DecodeJSON decodes any JSON value with exact numbers (json.Number): a
// float64 holds an int64 beyond 2^53 (a counter, a generation) only
// approximately, and another writer's value would pass for this one's.
// The patcher decodes with it too.
func DecodeJSON(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data after the JSON value")
	}
	return v, nil
}

// Decode decodes a JSON object with exact numbers (DecodeJSON); null is a
// nil map.
func Decode(b []byte) (map[string]any, error) {
	v, err := DecodeJSON(b)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok && v != nil {
		return nil, fmt.Errorf("a JSON %T, not an object", v)
	}
	return m, nil
}

// FromMergePatch fills w's Sets, Removals and Stamps from a JSON merge
// patch body (its metadata, the lock, left out).
func (w *Write) FromMergePatch(body []byte) error {
	m, err := Decode(body)
	if err != nil {
		return fmt.Errorf("decode the merge patch: %w", err)
	}
	delete(m, "metadata")
	w.mergeLeaves(nil, m)
	w.Stamps = len(w.Sets) > 0
	return nil
}

func (w *Write) mergeLeaves(at fieldpath.Path, m map[string]any) {
	for k, v := range m {
		p := field(at, k)
		switch x := v.(type) {
		case nil:
			w.Removals = append(w.Removals, p)
		case map[string]any:
			if len(x) > 0 {
				w.mergeLeaves(p, x)
				continue
			}
			w.Sets = append(w.Sets, Leaf{Path: p, Value: x})
		default:
			w.Sets = append(w.Sets, Leaf{Path: p, Value: x})
		}
	}
}

// FromJSONPatch fills w's Sets, Removals and Stamps from a JSON Patch
// body; numeric steps are list indexes where the base holds a list.
func (w *Write) FromJSONPatch(body []byte) error {
	var ops []struct {
		Op    string          `json:"op"`
		Path  string          `json:"path"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(body, &ops); err != nil {
		return fmt.Errorf("decode the JSON Patch: %w", err)
	}
	for _, op := range ops {
		if strings.HasPrefix(op.Path, "/metadata/") || op.Op == "test" {
			continue
		}
		p, appends := w.pointer(op.Path)
		switch op.Op {
		case "remove":
			w.Removals = append(w.Removals, p)
		case "add", "replace":
			w.Stamps = true
			if appends || op.Op == "add" && p[len(p)-1].Index != nil {
				w.Sets = append(w.Sets, Leaf{Path: p, Unchecked: true})
				continue
			}
			d := json.NewDecoder(bytes.NewReader(op.Value))
			d.UseNumber()
			var v any
			if err := d.Decode(&v); err != nil {
				return fmt.Errorf("decode the value of %s: %w", op.Path, err)
			}
			w.Sets = append(w.Sets, Leaf{Path: p, Value: v})
		default:
			w.Sets = append(w.Sets, Leaf{Path: p, Unchecked: true})
		}
	}
	return nil
}

// pointer turns a JSON Pointer into a path; appends is true for a final
// "-" (the path is then the list's).
func (w *Write) pointer(ptr string) (fieldpath.Path, bool) {
	var p fieldpath.Path
	var cur any = w.Base.Object
	steps := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	for i, s := range steps {
		s = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
		if l, ok := cur.([]any); ok {
			if s == "-" && i == len(steps)-1 {
				return p, true
			}
			if n, err := strconv.Atoi(s); err == nil {
				p = append(p, fieldpath.PathElement{Index: &n})
				if n >= 0 && n < len(l) {
					cur = l[n]
				} else {
					cur = nil
				}
				continue
			}
		}
		p = field(p, s)
		m, _ := cur.(map[string]any)
		cur = m[s]
	}
	return p, false
}

// FromApply fills w from an apply of status (the applied status object),
// whose lists at the dotted paths of keys ("status.conditions") are maps
// keyed by those fields. Set w.Base and w.Writer first: the fields w's
// entry owned at the base that the apply leaves out are removed.
func (w *Write) FromApply(status map[string]any, keys map[string][]string) {
	applied := &fieldpath.Set{}
	w.applyLeaves(field(nil, "status"), "status", status, keys, applied)
	w.Stamps = true
	owned := fieldSet(entry(w.Base.ManagedFields, w.Writer))
	if owned == nil {
		return
	}
	owned.Leaves().Difference(applied).Iterate(func(p fieldpath.Path) {
		w.Removals = append(w.Removals, p.Copy())
	})
}

func (w *Write) applyLeaves(at fieldpath.Path, dotted string, v any, keys map[string][]string, applied *fieldpath.Set) {
	applied.Insert(at)
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			w.Sets = append(w.Sets, Leaf{Path: at, Value: x})
		}
		for k, cv := range x {
			if cv != nil {
				w.applyLeaves(field(at, k), dotted+"."+k, cv, keys, applied)
			}
		}
		return
	case []any:
		if names, ok := keys[dotted]; ok {
			for _, it := range x {
				m, _ := it.(map[string]any)
				var kf value.FieldList
				for _, n := range names {
					kf = append(kf, value.Field{Name: n, Value: value.NewValueInterface(m[n])})
				}
				w.applyLeaves(append(slices.Clip(at), fieldpath.PathElement{Key: &kf}), dotted, it, keys, applied)
			}
			return
		}
	}
	w.Sets = append(w.Sets, Leaf{Path: at, Value: v})
}
