package settle

import "testing"

// nestedSchema: status.spec defaults to {} and its member mode to "auto"
// (the server fills both); status.labels is a map whose values are not
// nullable (a null is pruned); status.tier is defaulted only by the
// storage version (storageSchema).
func nestedSchema(t *testing.T) map[string]any {
	t.Helper()
	return obj(t, `{"type":"object","properties":{"metadata":{"type":"object"},
		"status":{"type":"object","properties":{
			"phase":{"type":"string"},
			"config":{"type":"object","default":{},"properties":{"mode":{"type":"string","default":"auto"},"size":{"type":"integer"}}},
			"labels":{"type":"object","additionalProperties":{"type":"string"}},
			"tier":{"type":"string"}}}}}`)
}

func storageSchema(t *testing.T) map[string]any {
	t.Helper()
	return obj(t, `{"type":"object","properties":{"status":{"type":"object","properties":{"tier":{"type":"string","default":"gold"}}}}}`)
}

// Issue 49, cases 2-4: what the server does to a stored write, explained
// by its schema: a nested default, a pruned null, a storage version's
// default. Each is Landed with this writer's entry stamped; without the
// explanation (another value) it stays Unknown, never a Conflict.
func TestFirstExplainsNestedDefaultsPrunedNullsAndStorageDefaults(t *testing.T) {
	s := NewSchema(nestedSchema(t), storageSchema(t))
	for _, c := range []struct {
		name, base, write, next string
		want                    Outcome
	}{
		{"a nested default", `{"status":{}}`, `{"status":{"phase":"Ready"}}`,
			`{"status":{"phase":"Ready","config":{"mode":"auto"},"tier":"gold"}}`, Landed},
		{"a nested default, another value", `{"status":{}}`, `{"status":{"phase":"Ready"}}`,
			`{"status":{"phase":"Ready","config":{"mode":"manual"},"tier":"gold"}}`, Unknown},
		{"a written object defaulted inside", `{"status":{"config":{"mode":"auto"},"tier":"gold"}}`, `{"status":{"config":{"size":3}}}`,
			`{"status":{"config":{"mode":"auto","size":3},"tier":"gold"}}`, Landed},
		{"a null the schema prunes", `{"status":{"labels":{"a":"x"},"config":{"mode":"auto"},"tier":"gold"}}`, ``,
			`{"status":{"labels":{"b":"y"},"config":{"mode":"auto"},"tier":"gold"}}`, Landed},
		{"a storage version's default", `{"status":{"config":{"mode":"auto"}}}`, `{"status":{"phase":"Ready"}}`,
			`{"status":{"phase":"Ready","config":{"mode":"auto"},"tier":"gold"}}`, Landed},
	} {
		base := version(t, "10", c.base)
		var w Write
		if c.write == "" {
			// A JSON Patch that sets a null (a merge patch's null is a removal).
			w = Write{Writer: me, Base: base}
			if err := w.FromJSONPatch([]byte(`[{"op":"add","path":"/status/labels/a","value":null},{"op":"add","path":"/status/labels/b","value":"y"}]`)); err != nil {
				t.Fatal(err)
			}
		} else {
			w = mergeWrite(t, base, c.write)
		}
		if d := First(w, version(t, "11", c.next), s); d.Outcome != c.want {
			t.Errorf("%s: First = %v (%s), want %v", c.name, d.Outcome, d.Why, c.want)
		}
	}
	// Without the storage version's schema its default is unexplained.
	w := mergeWrite(t, version(t, "10", `{"status":{"config":{"mode":"auto"}}}`), `{"status":{"phase":"Ready"}}`)
	if d := First(w, version(t, "11", `{"status":{"phase":"Ready","config":{"mode":"auto"},"tier":"gold"}}`), NewSchema(nestedSchema(t))); d.Outcome != Unknown {
		t.Errorf("no storage schema: First = %v (%s), want unknown", d.Outcome, d.Why)
	}
}
