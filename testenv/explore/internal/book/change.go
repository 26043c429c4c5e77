package book

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// What two versions of an object differ in, as a report says it.

// DescribeChange says what a version changed from the one before, in the
// parts of an object whose writes can be lost (TrackedPaths), for a write
// whose body a report does not show otherwise (an update, a create):
// "spec.size: 1 -> 5, metadata.labels.app: <none> -> "db"".
func DescribeChange(prev, cur map[string]any) string {
	var parts []string
	for _, p := range TrackedPaths {
		a, _, _ := unstructured.NestedFieldNoCopy(prev, p...)
		b, _, _ := unstructured.NestedFieldNoCopy(cur, p...)
		changes(strings.Join(p, "."), a, b, &parts)
	}
	if len(parts) == 0 {
		return ""
	}
	sort.Strings(parts)
	return shorten(strings.Join(parts, ", "), 240)
}

// changes appends "path: old -> new" for each leaf that differs, maps
// descended (keys with dots kept whole: a label's name is one key).
func changes(path string, a, b any, out *[]string) {
	ma, aok := a.(map[string]any)
	mb, bok := b.(map[string]any)
	// An absent side of a map is an empty map: a create shows its leaves,
	// not a map of nulls.
	if aok && !bok && Zero(b) {
		mb, bok = map[string]any{}, true
	}
	if bok && !aok && Zero(a) {
		ma, aok = map[string]any{}, true
	}
	if aok && bok {
		keys := map[string]bool{}
		for k := range ma {
			keys[k] = true
		}
		for k := range mb {
			keys[k] = true
		}
		for k := range keys {
			changes(path+"."+k, ma[k], mb[k], out)
		}
		return
	}
	if reflect.DeepEqual(a, b) || (Zero(a) && Zero(b)) {
		return
	}
	*out = append(*out, fmt.Sprintf("%s: %s -> %s", path, render(a), render(b)))
}

func render(v any) string {
	if Zero(v) {
		return "<none>"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// FirstDifference names the first differing leaf of two versions, and
// how many more differ: "status.phase "A" the first time, "B" the second
// (and 2 more fields)".
func FirstDifference(a, b map[string]any) string {
	var paths [][]string
	diffLeafFields(nil, a, b, &paths)
	if len(paths) == 0 {
		return "different objects"
	}
	// The first in the dotted order, each taken by its fields: a label's
	// key holds dots.
	first := slices.MinFunc(paths, func(x, y []string) int { return strings.Compare(strings.Join(x, "."), strings.Join(y, ".")) })
	va, _, _ := unstructured.NestedFieldNoCopy(a, first...)
	vb, _, _ := unstructured.NestedFieldNoCopy(b, first...)
	ja, _ := json.Marshal(va)
	jb, _ := json.Marshal(vb)
	more := ""
	if len(paths) > 1 {
		more = fmt.Sprintf(" (and %d more fields)", len(paths)-1)
	}
	return fmt.Sprintf("%s %s the first time, %s the second%s", strings.Join(first, "."), shorten(string(ja), 80), shorten(string(jb), 80), more)
}

// TimeLikeOnly reports whether each of paths (dotted leaves of leaves)
// differs between prev and cur only in times: an RFC 3339 time
// (metav1.Time, metav1.MicroTime, a lastTransitionTime) or a duration
// (metav1.Duration, "1m30s") on both sides, also inside a list's items,
// a map list's (keys: the schema's, nil when not known) matched by its
// keys whatever their order (Compare). Values, not names, decide: a
// field named as a time holding anything else is a decision.
func TimeLikeOnly(leaves []Leaf, paths []string, prev, cur map[string]any, keys ListKeys) bool {
	if len(paths) == 0 {
		return false
	}
	for _, p := range paths {
		i := slices.IndexFunc(leaves, func(l Leaf) bool { return l.Dotted == p })
		if i < 0 {
			return false
		}
		a, _, _ := unstructured.NestedFieldNoCopy(prev, leaves[i].Fields...)
		b, _, _ := unstructured.NestedFieldNoCopy(cur, leaves[i].Fields...)
		if Compare(leaves[i].Fields, a, b, keys) != TimesOnly {
			return false
		}
	}
	return true
}

// timeLike reports a string that parses as an RFC 3339 time or a Go
// duration with a unit.
func timeLike(v any) bool {
	s, ok := v.(string)
	if !ok || s == "" {
		return false
	}
	if _, err := time.Parse(time.RFC3339, s); err == nil {
		return true
	}
	_, err := time.ParseDuration(s)
	return err == nil && strings.ContainsAny(s, "hmsuµn")
}

// shorten cuts s to n bytes, marking the cut.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
