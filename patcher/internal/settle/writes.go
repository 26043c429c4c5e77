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
// patch body (its metadata, the lock, left out); set w.Base first.
func (w *Write) FromMergePatch(patch []byte) error {
	m, err := Decode(patch)
	if err != nil {
		return fmt.Errorf("decode the merge patch: %w", err)
	}
	w.body = body{merge: patch}
	delete(m, "metadata")
	w.mergeLeaves(nil, m)
	w.Stamps = w.adds()
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
func (w *Write) FromJSONPatch(patch []byte) error {
	var ops []struct {
		Op    string          `json:"op"`
		Path  string          `json:"path"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(patch, &ops); err != nil {
		return fmt.Errorf("decode the JSON Patch: %w", err)
	}
	w.body = body{jsonPatch: patch}
	for _, op := range ops {
		if strings.HasPrefix(op.Path, "/metadata/") || op.Op == "test" {
			continue
		}
		p, appends := w.pointer(op.Path)
		switch op.Op {
		case "remove":
			w.Removals = append(w.Removals, p)
		case "add", "replace":
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
	w.Stamps = w.adds()
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
// keyed by those fields and at the dotted paths of sets are sets, applied
// value by value. Set w.Base and w.Writer first: the fields w's entry owned
// at the base that the apply leaves out, and that no other entry owns, are
// removed (a field another manager owns too stays).
func (w *Write) FromApply(status map[string]any, keys map[string][]string, sets map[string]bool) {
	applied := &fieldpath.Set{}
	w.applyLeaves(field(nil, "status"), "status", status, keys, sets, applied)
	w.Stamps = w.adds()
	owned := fieldSet(entry(w.Base.ManagedFields, w.Writer))
	if owned == nil {
		return
	}
	others := othersOwn(*w)
	owned.Difference(applied).Iterate(func(p fieldpath.Path) {
		if !ownsAtOrBelow(others, p) {
			w.Removals = append(w.Removals, p.Copy())
		}
	})
}

// othersOwn is what the base's other managedFields entries own.
func othersOwn(w Write) *fieldpath.Set {
	others := &fieldpath.Set{}
	for i := range w.Base.ManagedFields {
		e := &w.Base.ManagedFields[i]
		if writerOf(e) == w.Writer.id() {
			continue
		}
		if fs := fieldSet(e); fs != nil {
			others = others.Union(fs)
		}
	}
	return others
}

// ownsAtOrBelow reports whether s holds p or a path below it: the server
// keeps a field another manager owns, and an item or map holding one.
func ownsAtOrBelow(s *fieldpath.Set, p fieldpath.Path) bool {
	found := false
	s.Iterate(func(q fieldpath.Path) {
		if found || len(q) < len(p) {
			return
		}
		found = true
		for i := range p {
			if !p[i].Equals(q[i]) {
				found = false
				return
			}
		}
	})
	return found
}

func (w *Write) applyLeaves(at fieldpath.Path, dotted string, v any, keys map[string][]string, sets map[string]bool, applied *fieldpath.Set) {
	applied.Insert(at)
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			w.Sets = append(w.Sets, Leaf{Path: at, Value: x})
		}
		for k, cv := range x {
			if cv != nil {
				w.applyLeaves(field(at, k), dotted+"."+k, cv, keys, sets, applied)
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
				w.applyLeaves(append(slices.Clip(at), fieldpath.PathElement{Key: &kf}), dotted, it, keys, sets, applied)
			}
			return
		}
		if sets[dotted] && w.setLeaves(at, x, applied) {
			return
		}
	}
	w.Sets = append(w.Sets, Leaf{Path: at, Value: v})
}

// setLeaves adds the values of a set list at at, one leaf each, as the
// server records them ("v:" elements); false, adding nothing, when a value
// is not one a set holds.
func (w *Write) setLeaves(at fieldpath.Path, values []any, applied *fieldpath.Set) bool {
	var paths []fieldpath.Path
	for _, it := range values {
		j, err := json.Marshal(it)
		if err != nil {
			return false
		}
		pe, err := fieldpath.DeserializePathElement("v:" + string(j))
		if err != nil {
			return false
		}
		paths = append(paths, append(slices.Clip(at), pe))
	}
	for i, p := range paths {
		applied.Insert(p)
		w.Sets = append(w.Sets, Leaf{Path: p, Value: values[i]})
	}
	return true
}
