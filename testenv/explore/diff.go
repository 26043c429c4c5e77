package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// describeChange says what a version changed from the one before, in the
// parts of an object whose writes can be lost (trackedPaths), for a write
// whose body a report does not show otherwise (an update, a create):
// "spec.size: 1 -> 5, metadata.labels.app: <none> -> "db"".
func describeChange(prev, cur map[string]any) string {
	var parts []string
	for _, p := range book.TrackedPaths {
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
	if aok && !bok && book.Zero(b) {
		mb, bok = map[string]any{}, true
	}
	if bok && !aok && book.Zero(a) {
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
	if reflect.DeepEqual(a, b) || (book.Zero(a) && book.Zero(b)) {
		return
	}
	*out = append(*out, fmt.Sprintf("%s: %s -> %s", path, render(a), render(b)))
}

func render(v any) string {
	if book.Zero(v) {
		return "<none>"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
