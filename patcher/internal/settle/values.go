package settle

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// checked is what the values of a version say about a write: a path it
// changed since the base outside what the write touches (outside, only for
// the first version after the base), a field the write sets holding
// another value (differs), a field the write removes still held (held).
// A field the write sets that the version lacks (pruned, or removed by a
// later write) is missing.
type checked struct {
	outside, differs, held, missing string
}

// For the first version after the base (first), a value the write set is
// held when the stored one contains it (pruned members missing, defaulted
// ones added); for any later read it must be equal.
func (w Write) check(v Version, first bool) checked {
	var c checked
	for _, l := range w.Sets {
		if l.Unchecked {
			continue
		}
		got, ok := lookup(v.Object, l.Path)
		switch {
		case !ok && c.missing == "":
			c.missing = l.Path.String()
		case ok && c.differs == "" && (first && !contains(l.Value, got) || !first && !reflect.DeepEqual(l.Value, got)):
			c.differs = l.Path.String()
		}
	}
	for _, r := range w.Removals {
		if _, ok := lookup(v.Object, r); ok && c.held == "" {
			c.held = r.String()
		}
	}
	if first {
		touched := w.touched()
		ours := false
		for _, p := range changed(nil, w.Base.Object, v.Object) {
			if !slices.ContainsFunc(touched, func(t fieldpath.Path) bool { return prefix(t, p) || prefix(p, t) }) {
				c.outside = p.String()
				break
			}
			ours = ours || w.explains(p, v.Object)
		}
		if c.outside == "" && !ours {
			c.outside = "nothing this write changed"
		}
	}
	return c
}

// explains reports whether the change at p in next is this write's: a
// field it removes, now gone, or a value it set, now stored as sent (a
// default or a pruned member explains nothing: a version made only of
// those is another writer's).
func (w Write) explains(p fieldpath.Path, next map[string]any) bool {
	for _, r := range w.Removals {
		if prefix(p, r) || prefix(r, p) {
			if _, ok := lookup(next, r); !ok {
				return true
			}
		}
	}
	for _, l := range w.Sets {
		switch {
		case l.Unchecked && (prefix(p, l.Path) || prefix(l.Path, p)):
			return true
		case l.Unchecked:
		case prefix(p, l.Path):
			got, ok := lookup(next, l.Path)
			old, had := lookup(w.Base.Object, l.Path)
			if ok && reflect.DeepEqual(l.Value, got) && (!had || !reflect.DeepEqual(old, got)) {
				return true
			}
		case prefix(l.Path, p):
			sent, ok := lookup(l.Value, p[len(l.Path):])
			got, gok := lookup(next, p)
			if ok && gok && reflect.DeepEqual(sent, got) {
				return true
			}
		}
	}
	return false
}

// touched are the paths w sets or removes, each raised to its highest
// ancestor the base lacks (or holds empty: a Go struct marshals to {} what
// the server does not hold): a map the write creates may be filled by
// defaults.
func (w Write) touched() []fieldpath.Path {
	var out []fieldpath.Path
	add := func(p fieldpath.Path) {
		for i := 1; i < len(p); i++ {
			if v, ok := lookup(w.Base.Object, p[:i]); !ok || isEmptyMap(v) {
				p = p[:i]
				break
			}
		}
		out = append(out, p)
	}
	for _, l := range w.Sets {
		add(l.Path)
	}
	for _, r := range w.Removals {
		add(r)
	}
	return out
}

func prefix(p, of fieldpath.Path) bool {
	if len(p) > len(of) {
		return false
	}
	for i := range p {
		if !p[i].Equals(of[i]) {
			return false
		}
	}
	return true
}

// changed lists the paths where a and b differ (maps compared key by key,
// anything else as a whole), leaving out what every write changes and what
// a typed read leaves out (ignored).
func changed(at fieldpath.Path, a, b any) []fieldpath.Path {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if !aok || !bok {
		if reflect.DeepEqual(a, b) {
			return nil
		}
		return []fieldpath.Path{at}
	}
	var out []fieldpath.Path
	seen := map[string]bool{}
	for _, m := range []map[string]any{am, bm} {
		for k := range m {
			if seen[k] || ignored(at, k) {
				continue
			}
			seen[k] = true
			out = append(out, changed(field(at, k), am[k], bm[k])...)
		}
	}
	return out
}

func field(at fieldpath.Path, name string) fieldpath.Path {
	n := name
	return append(slices.Clip(at), fieldpath.PathElement{FieldName: &n})
}

// contains reports whether stored holds what sent set: maps key by key (a
// key missing from stored was pruned; one stored and not sent was
// defaulted), lists item by item, anything else equal.
func contains(sent, stored any) bool {
	switch s := sent.(type) {
	case map[string]any:
		t, ok := stored.(map[string]any)
		if !ok {
			return false
		}
		for k, sv := range s {
			if tv, ok := t[k]; ok && !contains(sv, tv) {
				return false
			}
		}
		return true
	case []any:
		t, ok := stored.([]any)
		if !ok || len(t) != len(s) {
			return false
		}
		for i := range s {
			if !contains(s[i], t[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(sent, stored)
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

func isEmptyMap(v any) bool {
	m, ok := v.(map[string]any)
	return ok && len(m) == 0
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
