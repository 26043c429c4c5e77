package book

import (
	"strings"
	"testing"
)

// conditionsSchema is a CRD version's schema with metav1.Condition
// lists keyed by type, as controller-gen writes them, at status.conditions
// and inside each status.nodes item.
func conditionsSchema() map[string]any {
	conds := map[string]any{"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": []any{"type"},
		"items": map[string]any{"type": "object"}}
	return map[string]any{"type": "object", "properties": map[string]any{
		"status": map[string]any{"type": "object", "properties": map[string]any{
			"conditions": conds,
			"nodes":      map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": map[string]any{"conditions": conds}}},
			"atomic":     map[string]any{"type": "array", "items": map[string]any{"type": "object"}},
		}},
	}}
}

func cond(typ, status, at string) map[string]any {
	return map[string]any{"type": typ, "status": status, "lastTransitionTime": at}
}

func TestSchemaListKeys(t *testing.T) {
	keys := SchemaListKeys(conditionsSchema())
	for _, c := range []struct {
		path []string
		want bool
	}{
		{[]string{"status", "conditions"}, true},
		{[]string{"status", "nodes", ItemsField, "conditions"}, true},
		{[]string{"status", "nodes"}, false},  // no list type: atomic
		{[]string{"status", "atomic"}, false}, // atomic
		{[]string{"status", "missing"}, false},
		{[]string{"spec", "conditions"}, false},
	} {
		ks, ok := keys(c.path)
		if ok != c.want || (ok && strings.Join(ks, ",") != "type") {
			t.Errorf("keys(%v) = %v, %t; want %t", c.path, ks, ok, c.want)
		}
	}
	if SchemaListKeys(nil) != nil {
		t.Error("SchemaListKeys(nil) is not nil")
	}
}

// A map list is compared by its keys, order ignored, where the schema
// says so; without the schema, as one ordered value (Unknown: strict).
func TestCompareMapListByKeys(t *testing.T) {
	keys := SchemaListKeys(conditionsSchema())
	path := []string{"status", "conditions"}
	t1, t2 := "2026-11-29T08:00:00Z", "2026-11-29T08:00:05Z"
	a := []any{cond("Launched", "True", t1), cond("Registered", "True", t1)}
	reordered := []any{cond("Registered", "True", t1), cond("Launched", "True", t1)}
	retimed := []any{cond("Registered", "True", t2), cond("Launched", "True", t1)}
	decided := []any{cond("Registered", "Unknown", t1), cond("Launched", "True", t1)}
	fewer := []any{cond("Launched", "True", t1)}
	other := []any{cond("Launched", "True", t1), cond("Initialized", "True", t1)}
	for _, c := range []struct {
		name       string
		b          any
		keys       ListKeys
		want       Difference
		wantStrict Difference
	}{
		{"same", a, keys, Same, Same},
		{"reordered", reordered, keys, Same, Other},
		{"reordered and retimed", retimed, keys, TimesOnly, Other},
		{"a status decided", decided, keys, Other, Other},
		{"an item fewer", fewer, keys, Other, Other},
		{"another key", other, keys, Other, Other},
	} {
		if got := Compare(path, a, c.b, c.keys); got != c.want {
			t.Errorf("%s: Compare with the schema = %d, want %d", c.name, got, c.want)
		}
		if got := Compare(path, a, c.b, nil); got != c.wantStrict {
			t.Errorf("%s: Compare without the schema = %d, want %d", c.name, got, c.wantStrict)
		}
	}
	// A list the schema does not key is ordered, even with a schema.
	if got := Compare([]string{"status", "atomic"}, a, reordered, keys); got != Other {
		t.Errorf("an atomic list reordered: Compare = %d, want Other", got)
	}
	// A map list inside another list's items.
	nodes := func(cs []any) any { return []any{map[string]any{"conditions": cs}} }
	if got := Compare([]string{"status", "nodes"}, nodes(a), nodes(retimed), keys); got != TimesOnly {
		t.Errorf("nested conditions reordered and retimed: Compare = %d, want TimesOnly", got)
	}
	// Items repeating a key are no map: compared in order.
	dup := []any{cond("Launched", "True", t1), cond("Launched", "True", t1)}
	if got := Compare(path, dup, []any{cond("Launched", "True", t1), cond("Launched", "True", t2)}, keys); got != TimesOnly {
		t.Errorf("repeated keys, in order: Compare = %d, want TimesOnly", got)
	}
	// A time against a word, or a time removed, is a decision.
	if got := Compare(path, a, []any{cond("Launched", "True", t1), cond("Registered", "True", "never")}, keys); got != Other {
		t.Errorf("a time against a word: Compare = %d, want Other", got)
	}
}

// A loss inside a list of times only is time-only (issue 82's rank and
// message); one of a decision is not.
func TestTimeLikeOnlyInsideMapList(t *testing.T) {
	keys := SchemaListKeys(conditionsSchema())
	t1, t2 := "2026-11-29T08:00:00Z", "2026-11-29T08:00:05Z"
	prev := map[string]any{"status": map[string]any{"conditions": []any{cond("A", "True", t1), cond("B", "True", t1)}}}
	cur := map[string]any{"status": map[string]any{"conditions": []any{cond("B", "True", t2), cond("A", "True", t1)}}}
	leaves := ChangedLeaves(prev, cur)
	paths := []string{"status.conditions"}
	if !TimeLikeOnly(leaves, paths, prev, cur, keys) {
		t.Errorf("conditions retimed and reordered, with the schema: not time-only")
	}
	if TimeLikeOnly(leaves, paths, prev, cur, nil) {
		t.Errorf("conditions reordered, without the schema: time-only")
	}
	decided := map[string]any{"status": map[string]any{"conditions": []any{cond("B", "False", t2), cond("A", "True", t1)}}}
	if TimeLikeOnly(ChangedLeaves(prev, decided), paths, prev, decided, keys) {
		t.Errorf("a condition's status changed: time-only")
	}
}

// The first difference is named by its fields: a label's key holds dots.
func TestFirstDifferenceKeyWithDots(t *testing.T) {
	a := map[string]any{"metadata": map[string]any{"labels": map[string]any{"kubernetes.io/os": "linux"}}}
	b := map[string]any{"metadata": map[string]any{"labels": map[string]any{"kubernetes.io/os": "windows"}}}
	got := FirstDifference(a, b)
	want := `metadata.labels.kubernetes.io/os "linux" the first time, "windows" the second`
	if got != want {
		t.Errorf("FirstDifference = %s, want %s", got, want)
	}
}

// An atomic list (no map keys, or no schema) whose fresh value holds the
// same items in another order differs in order only, with or without
// times inside its items; an item decided otherwise, or one fewer, is
// another value, and a list in order keeps Compare's verdict.
func TestCompareAnyOrder(t *testing.T) {
	cond := func(typ, status, at string) any {
		return map[string]any{"type": typ, "status": status, "lastTransitionTime": at}
	}
	t1, t2 := "2026-11-29T08:00:00Z", "2026-11-29T08:00:05Z"
	path := []string{"status", "conditions"}
	a := []any{cond("Launched", "True", t1), cond("Registered", "True", t1)}
	for _, c := range []struct {
		name string
		b    any
		want Difference
	}{
		{"same", a, Same},
		{"retimed in order", []any{cond("Launched", "True", t1), cond("Registered", "True", t2)}, TimesOnly},
		{"reordered", []any{cond("Registered", "True", t1), cond("Launched", "True", t1)}, OrderOnly},
		{"reordered and retimed", []any{cond("Registered", "True", t2), cond("Launched", "True", t1)}, OrderOnly},
		{"reordered, a status decided", []any{cond("Registered", "Unknown", t1), cond("Launched", "True", t1)}, Other},
		{"an item fewer", []any{cond("Registered", "True", t1)}, Other},
		{"an item twice", []any{cond("Launched", "True", t1), cond("Launched", "True", t1)}, Other},
		{"no list", "Launched", Other},
	} {
		if got := CompareAnyOrder(path, a, c.b, nil); got != c.want {
			t.Errorf("%s: CompareAnyOrder = %d, want %d", c.name, got, c.want)
		}
	}
}
