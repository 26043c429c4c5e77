package settle

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

var me = Writer{Manager: "me", Operation: metav1.ManagedFieldsOperationUpdate, Subresource: "status"}

func mf(manager string, op metav1.ManagedFieldsOperationType, sub string, sec int, fields string) metav1.ManagedFieldsEntry {
	t := metav1.NewTime(time.Date(2026, 1, 1, 0, 0, sec, 0, time.UTC))
	return metav1.ManagedFieldsEntry{Manager: manager, Operation: op, Subresource: sub, Time: &t, FieldsV1: &metav1.FieldsV1{Raw: []byte(fields)}}
}

func obj(t *testing.T, doc string) map[string]any {
	t.Helper()
	m, err := Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func mergeWrite(t *testing.T, base Version, body string) Write {
	t.Helper()
	w := Write{Writer: me, Base: base}
	if err := w.FromMergePatch([]byte(body)); err != nil {
		t.Fatal(err)
	}
	return w
}

const itemsFields = `{"f:status":{"f:items":{}}}`

// The earlier attempt's pitfall: after a 409 without the history, this
// writer's entry unchanged since the base is no proof the write was not
// stored when the base's last write was this writer's, in the same second
// (managedFields time has one-second resolution): Unknown, not Conflict.
func TestFreshSameSecondIsUnknown(t *testing.T) {
	base := Version{ResourceVersion: "10", UID: "u", Object: obj(t, `{"status":{"items":["a"]}}`),
		ManagedFields: []metav1.ManagedFieldsEntry{mf("me", "Update", "status", 5, itemsFields)}}
	w := mergeWrite(t, base, `{"status":{"items":["a","mine"]}}`)
	fresh := Version{ResourceVersion: "12", UID: "u", Object: obj(t, `{"status":{"items":["theirs"]}}`),
		ManagedFields: []metav1.ManagedFieldsEntry{mf("me", "Update", "status", 5, itemsFields), mf("them", "Update", "status", 5, itemsFields)}}
	if d := Fresh(w, fresh); d.Outcome != Unknown {
		t.Fatalf("Fresh = %v (%s), want unknown", d.Outcome, d.Why)
	}
	// A later second in the base than this writer's entry holds: a stored
	// write would have stamped the entry. Not stamped: a Conflict.
	base.ManagedFields = append(base.ManagedFields, mf("them", "Update", "", 7, `{"f:metadata":{"f:labels":{}}}`))
	w = mergeWrite(t, base, `{"status":{"items":["a","mine"]}}`)
	if d := Fresh(w, fresh); d.Outcome != Conflict {
		t.Fatalf("Fresh = %v (%s), want conflict", d.Outcome, d.Why)
	}
	// A removal-only write need not stamp: no proof.
	w = mergeWrite(t, base, `{"status":{"items":null}}`)
	if d := Fresh(w, fresh); d.Outcome == Conflict {
		t.Fatalf("Fresh = %v (%s) for a removal-only write", d.Outcome, d.Why)
	}
}

func TestAPrunedWriteIsLandedOnlyByTheHistory(t *testing.T) {
	base := Version{ResourceVersion: "10", UID: "u", Object: obj(t, `{"status":{}}`),
		ManagedFields: []metav1.ManagedFieldsEntry{mf("me", "Update", "status", 4, itemsFields)}}
	w := mergeWrite(t, base, `{"metadata":{"resourceVersion":"10"},"status":{"items":["mine"],"plan":{}}}`)
	fresh := Version{ResourceVersion: "12", UID: "u", Object: obj(t, `{"status":{"items":["mine"],"phase":"Pending"}}`),
		ManagedFields: []metav1.ManagedFieldsEntry{mf("me", "Update", "status", 5, itemsFields)}}
	if d := Fresh(w, fresh); d.Outcome != Unknown {
		t.Fatalf("Fresh = %v (%s), want unknown: a stamp may be a writer sharing the name, plan may never have been stored", d.Outcome, d.Why)
	}
	if d := First(w, fresh, widgetSchema(t)); d.Outcome != Landed {
		t.Fatalf("First = %v (%s), want landed", d.Outcome, d.Why)
	}
	if d := First(w, fresh, nil); d.Outcome != Unknown || !d.NeedsSchema {
		t.Fatalf("First without the schema = %v (%s), want unknown for want of it", d.Outcome, d.Why)
	}
	fresh.ManagedFields = nil
	if d := Fresh(w, fresh); d.Outcome != Unknown {
		t.Fatalf("Fresh = %v (%s), want unknown", d.Outcome, d.Why)
	}
	fresh.UID = "other"
	if d := Fresh(w, fresh); d.Outcome != Conflict {
		t.Fatalf("Fresh on another UID = %v, want conflict", d.Outcome)
	}
}

// Item 1: an apply that removes an owned condition. The read holds every
// applied field, but still the removed one: not landed.
func TestApplyRemovalHeldIsNotLanded(t *testing.T) {
	owned := `{"f:status":{"f:conditions":{"k:{\"type\":\"A\"}":{".":{},"f:type":{},"f:status":{}},"k:{\"type\":\"B\"}":{".":{},"f:type":{},"f:status":{}}}}}`
	base := Version{ResourceVersion: "10", UID: "u",
		Object:        obj(t, `{"status":{"conditions":[{"type":"A","status":"True"},{"type":"B","status":"True"}]}}`),
		ManagedFields: []metav1.ManagedFieldsEntry{mf("me", "Apply", "status", 5, owned)}}
	w := Write{Writer: Writer{Manager: "me", Operation: metav1.ManagedFieldsOperationApply, Subresource: "status"}, Base: base}
	w.FromApply(obj(t, `{"conditions":[{"type":"A","status":"True"}]}`), map[string][]string{"status.conditions": {"type"}}, nil)
	if len(w.Removals) == 0 {
		t.Fatal("no removals from the owned set")
	}
	next := Version{ResourceVersion: "11", UID: "u", Object: obj(t, `{"metadata":{"labels":{"x":"y"}},"status":{"conditions":[{"type":"A","status":"True"},{"type":"B","status":"True"}]}}`),
		ManagedFields: append([]metav1.ManagedFieldsEntry{mf("other", "Update", "", 5, `{"f:metadata":{"f:labels":{}}}`)}, base.ManagedFields...)}
	if d := Fresh(w, next); d.Outcome == Landed {
		t.Fatalf("Fresh = landed (%s) while B is held", d.Why)
	}
	if d := First(w, next, nil); d.Outcome != Conflict {
		t.Fatalf("First = %v (%s), want conflict (another manager stamped)", d.Outcome, d.Why)
	}
	gone := Version{ResourceVersion: "11", UID: "u", Object: obj(t, `{"status":{"conditions":[{"type":"A","status":"True"}]}}`),
		ManagedFields: []metav1.ManagedFieldsEntry{mf("me", "Apply", "status", 6, `{"f:status":{"f:conditions":{"k:{\"type\":\"A\"}":{".":{},"f:type":{},"f:status":{}}}}}`)}}
	if d := First(w, gone, nil); d.Outcome != Landed {
		t.Fatalf("First = %v (%s), want landed", d.Outcome, d.Why)
	}
	// A version without any stamp that tells (same second, same set) that
	// still holds B and shows nothing of this write: not this write's.
	held := gone
	held.Object = base.Object
	held.ManagedFields = base.ManagedFields
	if d := First(w, held, nil); d.Outcome != Unknown {
		t.Fatalf("First = %v (%s), want unknown: no entry tells whose it is", d.Outcome, d.Why)
	}
	// One that shows this write's A but still holds B, which this writer
	// alone owned (the apply removes it; no default makes a list item):
	// not the base plus this write.
	held.Object = obj(t, `{"status":{"conditions":[{"type":"A","status":"True"},{"type":"B","status":"True"}]}}`)
	for i, l := range w.Sets {
		if l.Path.String() == `.status.conditions[type="A"].status` {
			w.Sets[i].Value = "True"
		}
	}
	w.Base.Object = obj(t, `{"status":{"conditions":[{"type":"A","status":"False"},{"type":"B","status":"True"}]}}`)
	if d := First(w, held, nil); d.Outcome != Unknown {
		t.Fatalf("First = %v (%s), want unknown: not this write's as sent, and no entry tells whose", d.Outcome, d.Why)
	}
}

// Item 4: the first version after the base lacks a field the schema
// prunes and has one it defaults: landed. Another change outside the
// write, or another value, is another writer's.
func TestFirstToleratesPruningAndDefaults(t *testing.T) {
	base := version(t, "10", `{"kind":"Widget","status":{}}`)
	w := mergeWrite(t, base, `{"status":{"items":["mine"],"plan":{}}}`)
	next := version(t, "11", `{"status":{"items":["mine"],"phase":"Pending"}}`)
	if d := First(w, next, widgetSchema(t)); d.Outcome != Landed {
		t.Fatalf("First = %v (%s), want landed", d.Outcome, d.Why)
	}
	// Another list of scalars than this write sets: the server does not
	// make that of a stored write, stamp or not.
	next.Object = obj(t, `{"status":{"items":["theirs"]}}`)
	if d := First(w, next, nil); d.Outcome != Conflict {
		t.Fatalf("First = %v (%s), want conflict", d.Outcome, d.Why)
	}
	next.Object = obj(t, `{"metadata":{"labels":{"a":"b"}},"status":{"items":["mine"]}}`)
	if d := First(w, next, widgetSchema(t)); d.Outcome != Unknown {
		t.Fatalf("First = %v (%s), want unknown (a label this write does not touch)", d.Outcome, d.Why)
	}
}

func TestFromJSONPatch(t *testing.T) {
	base := Version{Object: obj(t, `{"status":{"items":["a","b"],"notes":{"x":"1"},"phase":"Ready"}}`)}
	w := Write{Base: base}
	body := `[{"op":"test","path":"/metadata/resourceVersion","value":"10"},{"op":"replace","path":"/metadata/resourceVersion","value":"10"},` +
		`{"op":"remove","path":"/status/phase"},{"op":"add","path":"/status/notes/a~1b","value":null},{"op":"replace","path":"/status/items/1","value":"c"},` +
		`{"op":"add","path":"/status/items/-","value":"d"}]`
	if err := w.FromJSONPatch([]byte(body)); err != nil {
		t.Fatal(err)
	}
	if len(w.Removals) != 1 || w.Removals[0].String() != ".status.phase" || !w.Stamps || len(w.Sets) != 3 {
		t.Fatalf("removals %v, sets %d, stamps %v", w.Removals, len(w.Sets), w.Stamps)
	}
	next := Version{Object: obj(t, `{"status":{"items":["a","c","d"],"notes":{"x":"1","a/b":null}}}`)}
	if c := w.check(next); c != (checked{}) {
		t.Fatalf("check = %+v, want nothing", c)
	}
	next = Version{Object: obj(t, `{"status":{"items":["a","b"],"phase":"Ready"}}`)}
	if c := w.check(next); c.differs == "" || c.held == "" || c.missing == "" {
		t.Fatalf("check = %+v, want differs, held and missing (the null)", c)
	}
	// A removed member that holds null is still held.
	w = Write{Base: base}
	if err := w.FromJSONPatch([]byte(`[{"op":"remove","path":"/status/notes/x"}]`)); err != nil {
		t.Fatal(err)
	}
	if c := w.check(Version{Object: obj(t, `{"status":{"notes":{"x":null}}}`)}); c.held == "" {
		t.Fatalf("check = %+v, want the null member held", c)
	}
}

// A write whose values cannot be predicted (a JSON Patch append) gets no
// landed verdict from values alone.
func TestFreshUncheckableWriteIsNotLandedByValues(t *testing.T) {
	base := Version{ResourceVersion: "10", UID: "u", Object: obj(t, `{"status":{"items":["a"]}}`)}
	w := Write{Base: base}
	if err := w.FromJSONPatch([]byte(`[{"op":"add","path":"/status/items/-","value":"mine"}]`)); err != nil {
		t.Fatal(err)
	}
	fresh := Version{ResourceVersion: "12", UID: "u", Object: obj(t, `{"status":{"items":["a","theirs"]}}`)}
	if d := Fresh(w, fresh); d.Outcome == Landed {
		t.Fatalf("Fresh = landed (%s) for an append it cannot see", d.Why)
	}
}

// A JSON Patch that replaces a map whole: a later read holding another
// key and not this write's is not this write, though the write's key could
// have been pruned: only the history may tolerate that.
func TestFreshReplacedMapMustBeEqual(t *testing.T) {
	base := Version{ResourceVersion: "10", UID: "u", Object: obj(t, `{"status":{"notes":{"old":null}}}`)}
	w := Write{Base: base}
	if err := w.FromJSONPatch([]byte(`[{"op":"replace","path":"/status/notes","value":{"new":null}}]`)); err != nil {
		t.Fatal(err)
	}
	fresh := Version{ResourceVersion: "12", UID: "u", Object: obj(t, `{"status":{"notes":{"old":null}}}`)}
	if d := Fresh(w, fresh); d.Outcome == Landed {
		t.Fatalf("Fresh = landed (%s)", d.Why)
	}
}

// Found by FuzzSettleFaults: a JSON Patch that adds the whole status (its
// base was the zero status); another writer's first write set phase. The
// write's notes are missing ("pruned"?) and phase is inside what it
// touches ("defaulted"?): but nothing in that version is this write's.
func TestFirstNeedsAChangeOfThisWrite(t *testing.T) {
	base := version(t, "10", `{"status":{"owner":null}}`)
	w := Write{Writer: me, Base: base}
	if err := w.FromJSONPatch([]byte(`[{"op":"add","path":"/status","value":{"owner":null,"notes":{"mine":null}}}]`)); err != nil {
		t.Fatal(err)
	}
	next := version(t, "11", `{"status":{"owner":null,"phase":"theirs"}}`)
	if d := First(w, next, widgetSchema(t)); d.Outcome != Unknown {
		t.Fatalf("First = %v (%s), want unknown (not this write as sent, though this writer's entry was stamped)", d.Outcome, d.Why)
	}
	if d := First(w, next, nil); d.Outcome != Unknown {
		t.Fatalf("First without the schema = %v (%s), want unknown (pruned notes and a defaulted phase?)", d.Outcome, d.Why)
	}
	next.Object = obj(t, `{"status":{"owner":null,"notes":{"mine":null}}}`)
	if d := First(w, next, widgetSchema(t)); d.Outcome != Landed {
		t.Fatalf("First = %v (%s), want landed", d.Outcome, d.Why)
	}
}
