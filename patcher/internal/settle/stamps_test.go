package settle

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Issue 71: what a write stamps, and whose entry is whose.

const membersFields = `{"f:status":{"f:members":{"k:{\"name\":\"job-1\"}":{".":{},"f:name":{}},"k:{\"name\":\"job-2\"}":{".":{},"f:name":{}}}}}`

func TestOnlyAWriteThatAddsOrChangesStamps(t *testing.T) {
	base := Version{ResourceVersion: "10", UID: "u", Object: obj(t, `{"status":{"phase":"A","members":[{"name":"job-1"},{"name":"job-2"}],"counters":{"a":1}}}`)}
	for _, c := range []struct {
		body   string
		stamps bool
	}{
		{`{"status":{"members":[{"name":"job-2"}]}}`, false},                       // an item removed
		{`{"status":{"members":[{"name":"job-2"},{"name":"job-1"}]}}`, false},      // reordered
		{`{"status":{"members":[]}}`, false},                                       // all removed
		{`{"status":{"phase":null,"counters":{"a":null}}}`, false},                 // removals
		{`{"status":{"phase":"A"}}`, false},                                        // the same value
		{`{"status":{"phase":"B"}}`, true},                                         // changed
		{`{"status":{"counters":{"b":1}}}`, true},                                  // added
		{`{"status":{"members":[{"name":"job-2"},{"name":"job-3"}]}}`, true},       // an item added
		{`{"status":{"members":[{"name":"job-1","x":1},{"name":"job-2"}]}}`, true}, // an item changed
	} {
		if w := mergeWrite(t, base, c.body); w.Stamps != c.stamps {
			t.Errorf("%s: Stamps = %v, want %v", c.body, w.Stamps, c.stamps)
		}
	}
	w := Write{Writer: me, Base: base}
	if err := w.FromJSONPatch([]byte(`[{"op":"remove","path":"/status/members/0"}]`)); err != nil || w.Stamps {
		t.Fatalf("a JSON Patch remove: Stamps = %v (%v), want false", w.Stamps, err)
	}
}

// Case 1 in settle: another writer's removal stored, ours not; ours alone
// at the newest second. The writer of that version stamped nothing: no
// proof it is ours.
func TestARemovalIsNoStamp(t *testing.T) {
	mfs := []metav1.ManagedFieldsEntry{mf("me", "Update", "status", 7, membersFields)}
	base := Version{ResourceVersion: "10", UID: "u", Object: obj(t, `{"status":{"members":[{"name":"job-1"},{"name":"job-2"}]}}`), ManagedFields: mfs}
	w := mergeWrite(t, base, `{"status":{"members":[{"name":"job-2"}]}}`)
	next := Version{ResourceVersion: "11", UID: "u", Object: obj(t, `{"status":{"members":[{"name":"job-2"}]}}`), ManagedFields: mfs}
	if d := First(w, next, widgetSchema(t)); d.Outcome != Unknown {
		t.Fatalf("First = %v (%s), want unknown", d.Outcome, d.Why)
	}
	// Case 2: stored, a later second in the base: no Conflict either.
	base.ManagedFields = append(mfs, mf("them", "Update", "status", 9, `{"f:status":{"f:phase":{}}}`))
	w = mergeWrite(t, base, `{"status":{"members":[{"name":"job-2"}]}}`)
	if d := Fresh(w, Version{ResourceVersion: "11", UID: "u", Object: next.Object, ManagedFields: base.ManagedFields}); d.Outcome != Unknown {
		t.Fatalf("Fresh = %v (%s), want unknown", d.Outcome, d.Why)
	}
}

func withVersion(e metav1.ManagedFieldsEntry, apiVersion string) metav1.ManagedFieldsEntry {
	e.APIVersion = apiVersion
	return e
}

// Cases 3 and 4 in settle: an Update's entries are per apiVersion. This
// writer's (v1) entry stamped, another's two entries (v1, v2) unchanged:
// Landed; paired without the apiVersion, the other's looked stamped.
func TestEntriesPerAPIVersion(t *testing.T) {
	mine := Writer{Manager: "me", Operation: metav1.ManagedFieldsOperationUpdate, Subresource: "status", APIVersion: "g/v1"}
	theirs := []metav1.ManagedFieldsEntry{
		withVersion(mf("them", "Update", "status", 3, `{"f:status":{"f:phase":{}}}`), "g/v1"),
		withVersion(mf("them", "Update", "status", 4, `{"f:status":{"f:observedGeneration":{}}}`), "g/v2"),
	}
	base := Version{ResourceVersion: "10", UID: "u", Object: obj(t, `{"status":{"phase":"A","observedGeneration":1}}`), ManagedFields: theirs}
	w := Write{Writer: mine, Base: base}
	if err := w.FromMergePatch([]byte(`{"status":{"items":["mine"]}}`)); err != nil {
		t.Fatal(err)
	}
	next := Version{ResourceVersion: "11", UID: "u", Object: obj(t, `{"status":{"phase":"A","observedGeneration":1,"items":["mine"]}}`),
		ManagedFields: append([]metav1.ManagedFieldsEntry{withVersion(mf("me", "Update", "status", 5, itemsFields), "g/v1")}, theirs...)}
	if d := First(w, next, widgetSchema(t)); d.Outcome != Landed {
		t.Fatalf("First = %v (%s), want landed", d.Outcome, d.Why)
	}
	// This writer's entry of v2 stamped, not the v1 one the write was sent
	// with: another request's stamp (the same manager through v2).
	next.ManagedFields[0].APIVersion = "g/v2"
	if d := First(w, next, widgetSchema(t)); d.Outcome == Landed {
		t.Fatalf("First = %v (%s) on the v2 entry's stamp", d.Outcome, d.Why)
	}
	// An apply's entry is one across versions.
	if a, b := writerOf(&metav1.ManagedFieldsEntry{Manager: "x", Operation: "Apply", APIVersion: "g/v1"}),
		(Writer{Manager: "x", Operation: "Apply", APIVersion: "g/v2"}).id(); a != b {
		t.Fatalf("apply entries: %v != %v", a, b)
	}
}

func TestRealManager(t *testing.T) {
	for m, want := range map[string]bool{"": false, "ancient-changes": false, "before-first-apply": false, "manager": true} {
		if RealManager(m) != want {
			t.Errorf("RealManager(%q) = %v", m, !want)
		}
	}
}

// A time a client wrote into managedFields (later than now) is no server
// stamp: it orders nothing, so an unchanged entry is no Conflict.
func TestAClientWrittenTimeOrdersNothing(t *testing.T) {
	later := mf("later", "Update", "", 0, `{"f:metadata":{"f:labels":{"f:a":{}}}}`)
	later.Time = &metav1.Time{Time: clockNow().Add(24 * time.Hour)}
	mfs := []metav1.ManagedFieldsEntry{mf("me", "Update", "status", 5, itemsFields), later}
	base := Version{ResourceVersion: "10", UID: "u", Object: obj(t, `{"status":{"items":["a"]}}`), ManagedFields: mfs}
	w := mergeWrite(t, base, `{"status":{"items":["a","mine"]}}`)
	fresh := Version{ResourceVersion: "11", UID: "u", Object: obj(t, `{"status":{"items":["a","mine"]}}`), ManagedFields: mfs}
	if d := Fresh(w, fresh); d.Outcome == Conflict {
		t.Fatalf("Fresh = %v (%s), want no Conflict", d.Outcome, d.Why)
	}
	// The same entries with the later time in the past: a Conflict.
	later.Time = &metav1.Time{Time: clockNow().Add(-time.Hour)}
	w.Base.ManagedFields = []metav1.ManagedFieldsEntry{mfs[0], later}
	if d := Fresh(w, Version{ResourceVersion: "11", UID: "u", Object: fresh.Object, ManagedFields: w.Base.ManagedFields}); d.Outcome != Conflict {
		t.Fatalf("Fresh = %v (%s), want conflict", d.Outcome, d.Why)
	}
}
