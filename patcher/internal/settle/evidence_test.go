package settle

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

const restartsFields = `{"f:status":{"f:observedGeneration":{}}}`

// Issue 49, case 1: two controllers each set restarts = read + 1 from one
// base; theirs is the first write after the base, ours was not stored.
// The values are exactly the base plus ours: only the entries tell.
func TestTwoIncrementsFromOneBase(t *testing.T) {
	base := Version{ResourceVersion: "10", UID: "u", Object: obj(t, `{"status":{"observedGeneration":0}}`),
		ManagedFields: []metav1.ManagedFieldsEntry{mf("me", "Update", "status", 5, restartsFields), mf("them", "Update", "status", 5, restartsFields)}}
	w := mergeWrite(t, base, `{"status":{"observedGeneration":1}}`)
	next := Version{ResourceVersion: "11", UID: "u", Object: obj(t, `{"status":{"observedGeneration":1}}`),
		ManagedFields: []metav1.ManagedFieldsEntry{mf("me", "Update", "status", 5, restartsFields), mf("them", "Update", "status", 6, restartsFields)}}
	if d := Fresh(w, next); d.Outcome == Landed {
		t.Fatalf("Fresh = landed (%s): the same values are another writer's", d.Why)
	}
	if d := First(w, next, widgetSchema(t)); d.Outcome != Conflict {
		t.Fatalf("First = %v (%s), want conflict: the other entry was stamped, this one not", d.Outcome, d.Why)
	}
	// Without a field owner nothing tells the two apart.
	anon := w
	anon.Writer = Writer{}
	if d := First(anon, next, widgetSchema(t)); d.Outcome != Unknown {
		t.Fatalf("First without a field owner = %v (%s), want unknown", d.Outcome, d.Why)
	}
	// Both in the same second as their last writes: no entry stamped, and
	// this writer's entry not alone at the newest second: unknown.
	next.ManagedFields = base.ManagedFields
	if d := First(w, next, widgetSchema(t)); d.Outcome != Unknown {
		t.Fatalf("First, no stamp = %v (%s), want unknown", d.Outcome, d.Why)
	}
}

// No entry stamped, but this writer's alone holds the newest second: the
// first write after the base stamped its writer's entry with a second no
// earlier than any entry's, so it is this writer's.
func TestOnlyEntryAtTheNewestSecond(t *testing.T) {
	mfs := []metav1.ManagedFieldsEntry{mf("me", "Update", "status", 7, restartsFields), mf("them", "Update", "status", 5, restartsFields)}
	base := Version{ResourceVersion: "10", UID: "u", Object: obj(t, `{"status":{"observedGeneration":3}}`), ManagedFields: mfs}
	w := mergeWrite(t, base, `{"status":{"observedGeneration":4}}`)
	next := Version{ResourceVersion: "11", UID: "u", Object: obj(t, `{"status":{"observedGeneration":4}}`), ManagedFields: mfs}
	if d := First(w, next, widgetSchema(t)); d.Outcome != Landed {
		t.Fatalf("First = %v (%s), want landed", d.Outcome, d.Why)
	}
	// Another entry at the same second: either may have written.
	next.ManagedFields = []metav1.ManagedFieldsEntry{mfs[0], mf("them", "Update", "status", 7, restartsFields)}
	w.Base.ManagedFields = next.ManagedFields
	if d := First(w, next, widgetSchema(t)); d.Outcome != Unknown {
		t.Fatalf("First, a tie = %v (%s), want unknown", d.Outcome, d.Why)
	}
}

// A scalar this write sets holding another value: another writer's, with
// or without this writer's entry stamped (a writer sharing the name); the
// server prunes and defaults absent fields, it rewrites no scalar it keeps.
func TestAScalarThatDisagreesIsAConflict(t *testing.T) {
	base := Version{ResourceVersion: "10", UID: "u", Object: obj(t, `{"status":{"phase":"Pending"}}`),
		ManagedFields: []metav1.ManagedFieldsEntry{mf("me", "Update", "status", 5, `{"f:status":{"f:phase":{}}}`), mf("them", "Update", "status", 5, `{"f:status":{"f:phase":{}}}`)}}
	w := mergeWrite(t, base, `{"status":{"phase":"Ready"}}`)
	next := Version{ResourceVersion: "11", UID: "u", Object: obj(t, `{"status":{"phase":"Failed"}}`), ManagedFields: base.ManagedFields}
	if d := First(w, next, widgetSchema(t)); d.Outcome != Conflict {
		t.Fatalf("First = %v (%s), want conflict", d.Outcome, d.Why)
	}
	next.ManagedFields = []metav1.ManagedFieldsEntry{mf("me", "Update", "status", 6, `{"f:status":{"f:phase":{}}}`), base.ManagedFields[1]}
	if d := First(w, next, widgetSchema(t)); d.Outcome != Conflict {
		t.Fatalf("First, this writer's entry stamped = %v (%s), want conflict", d.Outcome, d.Why)
	}
	// A nested default or a pruned member changes an object: no proof.
	w = mergeWrite(t, base, `{"status":{"extra":{"a":"b"}}}`)
	next.Object = obj(t, `{"status":{"phase":"Pending","extra":{"a":"b","c":"d"}}}`)
	if d := First(w, next, widgetSchema(t)); d.Outcome == Conflict {
		t.Fatalf("First, an object that gained a member = conflict (%s)", d.Why)
	}
	// 1 and 1.0 are one number.
	if !sameValue(obj(t, `{"n":1}`)["n"], obj(t, `{"n":1.0}`)["n"]) {
		t.Fatal("1 and 1.0 compare unequal")
	}
}

// Issue 49, case 6: more than ten Update managers; the server merges the
// oldest into ancient-changes in the revision of this very write, and with
// a same-second tie moves this writer's new entry there: no Conflict.
func TestAncientChangesIsNoOtherWriter(t *testing.T) {
	var mfs []metav1.ManagedFieldsEntry
	for _, m := range []string{"a", "b", "c"} {
		mfs = append(mfs, mf(m, "Update", "status", 5, `{"f:status":{"f:notes":{}}}`))
	}
	base := Version{ResourceVersion: "10", UID: "u", Object: obj(t, `{"status":{"phase":"Pending"}}`),
		ManagedFields: append(mfs, mf("me", "Update", "status", 5, `{"f:status":{"f:phase":{}}}`))}
	w := mergeWrite(t, base, `{"status":{"phase":"Ready"}}`)
	next := Version{ResourceVersion: "11", UID: "u", Object: obj(t, `{"status":{"phase":"Ready"}}`),
		ManagedFields: []metav1.ManagedFieldsEntry{mfs[2], mf(ancientChanges, "Update", "", 6, `{"f:status":{"f:notes":{},"f:phase":{}}}`)}}
	d := First(w, next, widgetSchema(t))
	if d.Outcome != Unknown {
		t.Fatalf("First = %v (%s), want unknown", d.Outcome, d.Why)
	}
	if d := Fresh(w, next); d.Outcome != Unknown {
		t.Fatalf("Fresh = %v (%s), want unknown", d.Outcome, d.Why)
	}
	// This writer's entry stamped beside the merge: landed.
	next.ManagedFields = append(next.ManagedFields, mf("me", "Update", "status", 6, `{"f:status":{"f:phase":{}}}`))
	if d := First(w, next, widgetSchema(t)); d.Outcome != Landed {
		t.Fatalf("First = %v (%s), want landed", d.Outcome, d.Why)
	}
}

// Issue 49, case 7: a base read through a cache that strips managedFields
// (and last-applied-configuration): no Conflict from entries that only
// look new, nor from the annotation.
func TestATransformedBaseTellsNothing(t *testing.T) {
	base := Version{ResourceVersion: "10", UID: "u", Object: obj(t, `{"status":{"phase":"Pending"}}`)}
	w := mergeWrite(t, base, `{"status":{"phase":"Ready"}}`)
	next := Version{ResourceVersion: "11", UID: "u",
		Object:        obj(t, `{"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{}"}},"status":{"phase":"Ready"}}`),
		ManagedFields: []metav1.ManagedFieldsEntry{mf("kubectl", "Update", "", 3, `{"f:metadata":{}}`), mf("me", "Update", "status", 6, `{"f:status":{"f:phase":{}}}`)}}
	d := First(w, next, widgetSchema(t))
	if d.Outcome != Unknown || !d.NeedsServerBase {
		t.Fatalf("First = %v (%s, needs the server's base %v), want unknown, needing the server's base", d.Outcome, d.Why, d.NeedsServerBase)
	}
	// With managedFields but the annotation stripped: the metadata
	// differs, which the server's own base may explain.
	w.Base.ManagedFields = []metav1.ManagedFieldsEntry{next.ManagedFields[0], mf("me", "Update", "status", 5, `{"f:status":{"f:phase":{}}}`)}
	if d := First(w, next, widgetSchema(t)); d.Outcome != Unknown || !d.NeedsServerBase {
		t.Fatalf("First, annotation stripped = %v (%s), want unknown, needing the server's base", d.Outcome, d.Why)
	}
	// The server's own base: landed.
	w.Base.Object = obj(t, `{"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{}"}},"status":{"phase":"Pending"}}`)
	if d := First(w, next, widgetSchema(t)); d.Outcome != Landed {
		t.Fatalf("First on the server's base = %v (%s), want landed", d.Outcome, d.Why)
	}
}

// A server whose clock is behind stamps an entry with an earlier second:
// still a stamp.
func TestAnEarlierSecondIsAStamp(t *testing.T) {
	base := Version{ResourceVersion: "10", UID: "u", Object: obj(t, `{"status":{"observedGeneration":0}}`),
		ManagedFields: []metav1.ManagedFieldsEntry{mf("me", "Update", "status", 5, restartsFields), mf("them", "Update", "status", 9, restartsFields)}}
	w := mergeWrite(t, base, `{"status":{"observedGeneration":1}}`)
	next := Version{ResourceVersion: "11", UID: "u", Object: obj(t, `{"status":{"observedGeneration":1}}`),
		ManagedFields: []metav1.ManagedFieldsEntry{mf("me", "Update", "status", 5, restartsFields), mf("them", "Update", "status", 8, restartsFields)}}
	if d := First(w, next, widgetSchema(t)); d.Outcome != Conflict {
		t.Fatalf("First = %v (%s), want conflict", d.Outcome, d.Why)
	}
}

// The object's creation (an entry of the main resource) at the newest
// second too is no tie: a write through the main resource cannot have
// made a version that differs from the base in its status alone.
func TestTheNewestSecondAmongStatusWriters(t *testing.T) {
	mfs := []metav1.ManagedFieldsEntry{mf("me", "Update", "status", 7, restartsFields), mf("creator", "Update", "", 7, `{"f:spec":{}}`)}
	base := Version{ResourceVersion: "10", UID: "u", Object: obj(t, `{"status":{"observedGeneration":3}}`), ManagedFields: mfs}
	w := mergeWrite(t, base, `{"status":{"observedGeneration":4}}`)
	next := Version{ResourceVersion: "11", UID: "u", Object: obj(t, `{"status":{"observedGeneration":4}}`), ManagedFields: mfs}
	if d := First(w, next, widgetSchema(t)); d.Outcome != Landed {
		t.Fatalf("First = %v (%s), want landed", d.Outcome, d.Why)
	}
}

// An apply without the lock asks for its values: a read holding them all
// settles it (Held); a locked write's read never does (Fresh).
func TestHeldSettlesOnlyAnApplyWithoutTheLock(t *testing.T) {
	base := Version{ResourceVersion: "10", UID: "u", Object: obj(t, `{"status":{"phase":"Pending"}}`),
		ManagedFields: []metav1.ManagedFieldsEntry{mf("me", "Apply", "status", 5, `{"f:status":{"f:phase":{}}}`)}}
	w := Write{Writer: Writer{Manager: "me", Operation: metav1.ManagedFieldsOperationApply, Subresource: "status"}, Base: base}
	w.FromApply(obj(t, `{"phase":"Ready"}`), nil, nil)
	fresh := Version{ResourceVersion: "12", UID: "u", Object: obj(t, `{"status":{"phase":"Ready"}}`), ManagedFields: base.ManagedFields}
	if d := Held(w, fresh); d.Outcome != Landed {
		t.Fatalf("Held = %v (%s), want landed", d.Outcome, d.Why)
	}
	if d := Fresh(w, fresh); d.Outcome == Landed {
		t.Fatalf("Fresh = landed (%s)", d.Why)
	}
	fresh.Object = obj(t, `{"status":{"phase":"Failed"}}`)
	if d := Held(w, fresh); d.Outcome == Landed {
		t.Fatalf("Held = landed (%s) for another value", d.Why)
	}
}

// s91j, TestNonStatusChangesUnsentSchedules/defaults/seed-191: a stored
// write that removed status.phase, which the storage version defaults
// back, its answer lost and nobody writing after it. This writer's entry
// lost the field (its own removal; a removal stamps no entry) while the
// object holds it again: no proof that another manager took it, so no
// Conflict.
func TestARemovedFieldDefaultedBackIsNoOtherWriter(t *testing.T) {
	base := Version{ResourceVersion: "18", UID: "u", Object: obj(t, `{"status":{"phase":"Other","items":["a"]}}`),
		ManagedFields: []metav1.ManagedFieldsEntry{mf("me", "Update", "status", 5, `{"f:status":{".":{},"f:items":{},"f:phase":{}}}`)}}
	w := mergeWrite(t, base, `{"status":{"phase":null}}`)
	next := Version{ResourceVersion: "20", UID: "u", Object: obj(t, `{"status":{"phase":"Pending","items":["a"]}}`),
		ManagedFields: []metav1.ManagedFieldsEntry{mf("me", "Update", "status", 5, `{"f:status":{".":{},"f:items":{}}}`)}}
	if d := First(w, next, widgetSchema(t)); d.Outcome == Conflict {
		t.Fatalf("First = %v (%s), want no Conflict", d.Outcome, d.Why)
	}
	if d := Fresh(w, next); d.Outcome == Conflict {
		t.Fatalf("Fresh = %v (%s), want no Conflict", d.Outcome, d.Why)
	}
}
