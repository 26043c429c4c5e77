package book

import (
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// How two versions are compared: by their changed leaves, and, for a
// hash or an equality that must hold across runs of one schedule, with
// what differs between runs stripped (Comparable).

// TrackedPaths are the parts of an object whose writes can be lost.
var TrackedPaths = [][]string{{"spec"}, {"status"}, {"metadata", "finalizers"}, {"metadata", "labels"}, {"metadata", "annotations"}}

// A leaf is a changed leaf path: dot-joined (for messages and the owners
// map) and as its field names (a name may hold dots: a label key).
type Leaf struct {
	Dotted string
	Fields []string
}

// ChangedLeaves lists the leaf paths (maps are descended, anything else is
// a leaf) whose value differs between two versions.
func ChangedLeaves(a, b map[string]any) []Leaf {
	var out []Leaf
	for _, p := range TrackedPaths {
		va, _, _ := unstructured.NestedFieldNoCopy(a, p...)
		vb, _, _ := unstructured.NestedFieldNoCopy(b, p...)
		var fields [][]string
		diffLeafFields(p, va, vb, &fields)
		for _, f := range fields {
			out = append(out, Leaf{Dotted: strings.Join(f, "."), Fields: f})
		}
	}
	return out
}

// DiffLeaves is ChangedLeaves' walk from path, dot-joined.
func DiffLeaves(path string, a, b any, out *[]string) {
	var fields [][]string
	diffLeafFields(nil, a, b, &fields)
	for _, f := range fields {
		p := path
		if len(f) > 0 {
			p += "." + strings.Join(f, ".")
		}
		*out = append(*out, p)
	}
}

func diffLeafFields(path []string, a, b any, out *[][]string) {
	ma, aok := a.(map[string]any)
	mb, bok := b.(map[string]any)
	if !aok || !bok {
		if aok || bok {
			leaves(path, a, out)
			leaves(path, b, out)
			return
		}
		if !reflect.DeepEqual(a, b) && (!Zero(a) || !Zero(b)) {
			*out = append(*out, path)
		}
		return
	}
	for k, va := range ma {
		diffLeafFields(with(path, k), va, mb[k], out)
	}
	for k, vb := range mb {
		if _, ok := ma[k]; !ok {
			diffLeafFields(with(path, k), nil, vb, out)
		}
	}
}

// with is path and k, in a slice of its own.
func with(path []string, k string) []string {
	return append(path[:len(path):len(path)], k)
}

// Zero reports an absent or empty value: typed objects converted back and
// JSON from the server differ only in these.
func Zero(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Map, reflect.Slice:
		return rv.Len() == 0
	}
	return rv.IsZero()
}

func leaves(path []string, v any, out *[][]string) {
	m, ok := v.(map[string]any)
	if !ok {
		if !Zero(v) {
			*out = append(*out, path)
		}
		return
	}
	for k, c := range m {
		leaves(with(path, k), c, out)
	}
}

// normalized is a version without what differs between runs of the same
// schedule (resourceVersion, uid, timestamps, managedFields), for hashing.
func normalized(v map[string]any) any {
	if v == nil {
		return nil
	}
	out := strip(v).(map[string]any)
	delete(out, "apiVersion") // typed objects come back without them
	delete(out, "kind")
	return out
}

func strip(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, c := range t {
			switch k {
			case "resourceVersion", "uid", "creationTimestamp", "managedFields", "lastTransitionTime":
				continue
			case "deletionTimestamp":
				out[k] = "set"
				continue
			}
			out[k] = strip(c)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, c := range t {
			out[i] = strip(c)
		}
		return out
	}
	return v
}

// Comparable is version v as two runs of one schedule, or two schedules
// reaching one state, compare it: without what differs between runs
// (resourceVersion, uid, timestamps, managedFields; see normalized), and
// with each UID and name the server chose replaced by its label (uids,
// from Book.ServerLabels).
func Comparable(v map[string]any, uids map[string]string) any {
	return mapUIDs(normalized(v), uids)
}

// mapUIDs is v with each string uids labels replaced by its label.
func mapUIDs(v any, uids map[string]string) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, c := range t {
			out[k] = mapUIDs(c, uids)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, c := range t {
			out[i] = mapUIDs(c, uids)
		}
		return out
	case string:
		if l, ok := uids[t]; ok {
			return l
		}
	}
	return v
}
