package settle

import (
	"strconv"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// widgetSchema is a CRD's openAPIV3Schema as the server publishes it:
// status.plan is not in it (pruned), status.phase defaults to Pending,
// status.tags is a set, status.conditions a map list keyed by type,
// status.extra keeps unknown fields.
func widgetSchema(t *testing.T) *Schema {
	t.Helper()
	return NewSchema(obj(t, `{"type":"object","properties":{
		"apiVersion":{"type":"string"},"kind":{"type":"string"},"metadata":{"type":"object"},
		"status":{"type":"object","properties":{
			"observedGeneration":{"type":"integer"},
			"phase":{"type":"string","default":"Pending"},
			"owner":{"type":"string","nullable":true},
			"items":{"type":"array","items":{"type":"string"}},
			"tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
			"notes":{"type":"object","nullable":true,"additionalProperties":{"type":"string","nullable":true}},
			"conditions":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["type"],
				"items":{"type":"object","properties":{"type":{"type":"string"},"status":{"type":"string"},"reason":{"type":"string","default":"None"}}}},
			"extra":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}}}`))
}

// version is a version of the object whose managedFields hold this
// writer's entry stamped at the second rv names: a next version after a
// base made with it shows this writer's write, so only values decide.
func version(t *testing.T, rv, doc string) Version {
	t.Helper()
	sec, err := strconv.Atoi(rv)
	if err != nil {
		t.Fatal(err)
	}
	return Version{ResourceVersion: rv, UID: "u", Object: obj(t, doc),
		ManagedFields: []metav1.ManagedFieldsEntry{mf("me", metav1.ManagedFieldsOperationUpdate, "status", sec, `{"f:status":{}}`)}}
}

// The first version after the base against the base plus a merge write
// {phase: Ready, items: [mine]}: only the exact one (give or take what the
// schema explains) is this write's; one that shares a value and lacks the
// item (issue 37, case 1) is another writer's, whatever the base held.
func TestFirstIsTheBasePlusTheWrite(t *testing.T) {
	for _, base := range []string{`{"status":{}}`, `{"status":{"phase":"Pending"}}`} {
		w := mergeWrite(t, version(t, "10", base), `{"metadata":{"resourceVersion":"10"},"status":{"phase":"Ready","items":["mine"]}}`)
		for _, c := range []struct {
			name, next string
			want       Outcome
		}{
			{"equal", `{"status":{"phase":"Ready","items":["mine"]}}`, Landed},
			{"subset: a shared value, our item lacking", `{"status":{"phase":"Ready"}}`, Unknown},
			{"subset plus a field this write does not set", `{"status":{"phase":"Ready","observedGeneration":1}}`, Unknown},
			{"superset", `{"status":{"phase":"Ready","items":["mine"],"observedGeneration":1}}`, Unknown},
			{"disjoint", `{"status":{"phase":"Failed","items":["theirs"]}}`, Conflict},
			{"our item among others", `{"status":{"phase":"Ready","items":["theirs","mine"]}}`, Conflict},
			{"a spec change", `{"spec":{"size":1},"status":{"phase":"Ready","items":["mine"]}}`, Unknown},
		} {
			d := First(w, version(t, "11", c.next), widgetSchema(t))
			if d.Outcome != c.want {
				t.Errorf("base %s, %s: First = %v (%s), want %v", base, c.name, d.Outcome, d.Why, c.want)
			}
			// Without the schema nothing is landed that the schema
			// would have to explain, and no Landed turns into another
			// verdict but Unknown.
			nd := First(w, version(t, "11", c.next), nil)
			if nd.Outcome != c.want && nd.Outcome != Unknown {
				t.Errorf("base %s, %s, no schema: First = %v (%s), want %v or unknown", base, c.name, nd.Outcome, nd.Why, c.want)
			}
		}
	}
}

// Same-second stamps (issue 37, case 2): the other manager's entry keeps
// its time and fields, so no stamp tells; the values do not make its
// version ours.
func TestFirstSameSecondOtherManagerIsNotMine(t *testing.T) {
	theirs := mf("them", metav1.ManagedFieldsOperationUpdate, "status", 5, `{"f:status":{"f:phase":{}}}`)
	base := version(t, "10", `{"status":{"phase":"Pending"}}`)
	base.ManagedFields = []metav1.ManagedFieldsEntry{theirs}
	w := mergeWrite(t, base, `{"status":{"phase":"Ready","items":["mine"]}}`)
	next := version(t, "11", `{"status":{"phase":"Ready"}}`)
	next.ManagedFields = []metav1.ManagedFieldsEntry{theirs}
	for _, s := range []*Schema{widgetSchema(t), nil} {
		if d := First(w, next, s); d.Outcome == Landed {
			t.Fatalf("First = landed (%s)", d.Why)
		}
	}
}

// Pruned and defaulted fields, explained by the schema only.
func TestFirstSchemaExplainsPruningAndDefaults(t *testing.T) {
	base := version(t, "10", `{"status":{"phase":"Ready"}}`)
	w := mergeWrite(t, base, `{"status":{"plan":{"id":"p"},"items":["mine"],"extra":{"any":{"x":1}}}}`)
	for _, c := range []struct {
		name, next string
		want       Outcome
	}{
		{"plan pruned, extra kept", `{"status":{"phase":"Ready","items":["mine"],"extra":{"any":{"x":1}}}}`, Landed},
		{"plan kept (not pruned by this schema)", `{"status":{"phase":"Ready","items":["mine"],"plan":{"id":"p"},"extra":{"any":{"x":1}}}}`, Unknown},
		{"extra lacking: the schema keeps it", `{"status":{"phase":"Ready","items":["mine"]}}`, Unknown},
		{"a number the schema does not default", `{"status":{"phase":"Ready","items":["mine"],"observedGeneration":3,"extra":{"any":{"x":1}}}}`, Unknown},
	} {
		if d := First(w, version(t, "11", c.next), widgetSchema(t)); d.Outcome != c.want {
			t.Errorf("%s: First = %v (%s), want %v", c.name, d.Outcome, d.Why, c.want)
		}
	}
	// A default the schema declares, with its value: explained; another
	// value is not.
	w = mergeWrite(t, version(t, "10", `{"status":{}}`), `{"status":{"conditions":[{"type":"A","status":"True"}]}}`)
	if d := First(w, version(t, "11", `{"status":{"phase":"Pending","conditions":[{"type":"A","status":"True","reason":"None"}]}}`), widgetSchema(t)); d.Outcome != Landed {
		t.Errorf("defaulted: First = %v (%s), want landed", d.Outcome, d.Why)
	}
	if d := First(w, version(t, "11", `{"status":{"phase":"Failed","conditions":[{"type":"A","status":"True"}]}}`), widgetSchema(t)); d.Outcome != Unknown {
		t.Errorf("another value than the default: First = %v (%s), want unknown", d.Outcome, d.Why)
	}
	if d := First(w, version(t, "11", `{"status":{"phase":"Pending","conditions":[{"type":"A","status":"True"}]}}`), nil); d.Outcome != Unknown || !d.NeedsSchema {
		t.Errorf("no schema: First = %v (%s), want unknown for want of the schema", d.Outcome, d.Why)
	}
}

// Removals: a removed field gone is the write's; still held, another's.
func TestFirstRemovals(t *testing.T) {
	base := version(t, "10", `{"status":{"phase":"Ready","owner":"me","items":["a"]}}`)
	w := mergeWrite(t, base, `{"status":{"owner":null,"items":["a","b"]}}`)
	if d := First(w, version(t, "11", `{"status":{"phase":"Ready","items":["a","b"]}}`), widgetSchema(t)); d.Outcome != Landed {
		t.Errorf("removed: First = %v (%s), want landed", d.Outcome, d.Why)
	}
	if d := First(w, version(t, "11", `{"status":{"phase":"Ready","owner":"me","items":["a","b"]}}`), widgetSchema(t)); d.Outcome != Unknown {
		t.Errorf("held: First = %v (%s), want unknown", d.Outcome, d.Why)
	}
	if d := First(w, version(t, "11", `{"status":{"phase":"Ready","owner":"me"}}`), widgetSchema(t)); d.Outcome != Unknown {
		t.Errorf("another removal: First = %v (%s), want unknown", d.Outcome, d.Why)
	}
}

// Lists compare by their declared type: a set as a set, a map list by its
// keys, an atomic list in order.
func TestFirstListsByDeclaredType(t *testing.T) {
	base := version(t, "10", `{"status":{"tags":["x"],"conditions":[{"type":"A","status":"True"}],"items":["a"]}}`)
	w := mergeWrite(t, base, `{"status":{"tags":["x","y"],"conditions":[{"type":"A","status":"True"},{"type":"B","status":"False"}],"items":["a","b"]}}`)
	for _, c := range []struct {
		name, next string
		want       Outcome
	}{
		{"as sent", `{"status":{"tags":["x","y"],"conditions":[{"type":"A","status":"True"},{"type":"B","status":"False"}],"items":["a","b"]}}`, Landed},
		{"set and map list in another order", `{"status":{"tags":["y","x"],"conditions":[{"type":"B","status":"False"},{"type":"A","status":"True"}],"items":["a","b"]}}`, Landed},
		{"atomic list in another order", `{"status":{"tags":["x","y"],"conditions":[{"type":"A","status":"True"},{"type":"B","status":"False"}],"items":["b","a"]}}`, Unknown},
		{"set holds another value", `{"status":{"tags":["x","z"],"conditions":[{"type":"A","status":"True"},{"type":"B","status":"False"}],"items":["a","b"]}}`, Conflict},
		{"map item with another value", `{"status":{"tags":["x","y"],"conditions":[{"type":"A","status":"True"},{"type":"B","status":"True"}],"items":["a","b"]}}`, Unknown},
		{"map item lacking", `{"status":{"tags":["x","y"],"conditions":[{"type":"A","status":"True"}],"items":["a","b"]}}`, Unknown},
	} {
		if d := First(w, version(t, "11", c.next), widgetSchema(t)); d.Outcome != c.want {
			t.Errorf("%s: First = %v (%s), want %v", c.name, d.Outcome, d.Why, c.want)
		}
	}
	// Without the schema the order of a list tells nothing: unknown.
	next := version(t, "11", `{"status":{"tags":["y","x"],"conditions":[{"type":"A","status":"True"},{"type":"B","status":"False"}],"items":["a","b"]}}`)
	if d := First(w, next, nil); d.Outcome != Unknown {
		t.Errorf("no schema, reordered set: First = %v (%s), want unknown", d.Outcome, d.Why)
	}
}

// An apply to a set another manager shares (issue 37, case 3) and one
// that re-sends a value this manager owns with a new one (case 4): the
// set is applied value by value, the re-sent value is no removal.
func TestApplyToASetList(t *testing.T) {
	applyMe := Writer{Manager: "me", Operation: metav1.ManagedFieldsOperationApply, Subresource: "status"}
	sets := map[string]bool{"status.tags": true}
	for _, c := range []struct {
		name string
		mfs  []metav1.ManagedFieldsEntry
	}{
		{"shared with another manager", []metav1.ManagedFieldsEntry{mf("them", "Apply", "status", 5, `{"f:status":{"f:tags":{"v:\"x\"":{}}}}`)}},
		{"x owned by this manager", []metav1.ManagedFieldsEntry{mf("me", "Apply", "status", 5, `{"f:status":{"f:tags":{"v:\"x\"":{}}}}`)}},
	} {
		base := version(t, "10", `{"status":{"tags":["x"]}}`)
		base.ManagedFields = c.mfs
		w := Write{Writer: applyMe, Base: base}
		applied := `{"tags":["y"]}`
		if c.mfs[0].Manager == "me" {
			applied = `{"tags":["x","y"]}`
		}
		w.FromApply(obj(t, applied), nil, sets)
		if len(w.Removals) != 0 {
			t.Fatalf("%s: removals %v", c.name, w.Removals)
		}
		next := version(t, "11", `{"status":{"tags":["x","y"]}}`)
		next.ManagedFields = append(c.mfs[:1:1], mf("me", "Apply", "status", 6, `{"f:status":{"f:tags":{"v:\"x\"":{},"v:\"y\"":{}}}}`))
		if d := Fresh(w, next); d.Outcome != Unknown {
			t.Errorf("%s: Fresh = %v (%s), want unknown: a read proves no write of this one's", c.name, d.Outcome, d.Why)
		}
		if d := First(w, next, widgetSchema(t)); d.Outcome != Landed {
			t.Errorf("%s: First = %v (%s), want landed", c.name, d.Outcome, d.Why)
		}
		next.Object = obj(t, `{"status":{"tags":["x"]}}`)
		if d := First(w, next, widgetSchema(t)); d.Outcome != Unknown {
			t.Errorf("%s: y lacking: First = %v (%s), want unknown (this writer's entry stamped)", c.name, d.Outcome, d.Why)
		}
	}
}

// An apply that leaves out a field this manager owned: removed when it
// owned it alone; kept when another manager owns it too (the server keeps
// it), so a version still holding it is this write's.
func TestApplyLeavesACoOwnedFieldInPlace(t *testing.T) {
	applyMe := Writer{Manager: "me", Operation: metav1.ManagedFieldsOperationApply, Subresource: "status"}
	phase := `{"f:status":{"f:phase":{},"f:owner":{}}}`
	for _, coOwned := range []bool{false, true} {
		base := version(t, "10", `{"status":{"phase":"Ready","owner":"me"}}`)
		base.ManagedFields = []metav1.ManagedFieldsEntry{mf("me", "Apply", "status", 5, phase)}
		if coOwned {
			base.ManagedFields = append(base.ManagedFields, mf("them", "Update", "status", 5, `{"f:status":{"f:owner":{}}}`))
		}
		w := Write{Writer: applyMe, Base: base}
		w.FromApply(obj(t, `{"phase":"Done"}`), nil, nil)
		next := version(t, "11", `{"status":{"phase":"Done","owner":"me"}}`)
		next.ManagedFields = append([]metav1.ManagedFieldsEntry{mf("me", "Apply", "status", 6, `{"f:status":{"f:phase":{}}}`)}, base.ManagedFields[1:]...)
		want := map[bool]Outcome{false: Unknown, true: Landed}[coOwned]
		if d := First(w, next, widgetSchema(t)); d.Outcome != want {
			t.Errorf("co-owned %v: First = %v (%s), want %v", coOwned, d.Outcome, d.Why, want)
		}
	}
}
