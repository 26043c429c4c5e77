package settle

import (
	"bytes"
	"fmt"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// Outcome is what became of a sent write.
type Outcome int

const (
	// Unknown: the evidence cannot tell whether the write was stored.
	Unknown Outcome = iota
	// Landed: the write was stored.
	Landed
	// Conflict: the write was not stored, and, carrying the lock, never
	// will be.
	Conflict
)

func (o Outcome) String() string {
	return [...]string{"unknown", "landed", "conflict"}[o]
}

// Decision is an outcome and the evidence for it, for the error message.
type Decision struct {
	Outcome Outcome
	Why     string
	// NeedsSchema: the outcome is Unknown for want of the server's schema
	// for the object; First given it may decide.
	NeedsSchema bool
}

// Writer is the managedFields entry a write of this patcher stamps.
type Writer struct {
	Manager     string
	Operation   metav1.ManagedFieldsOperationType
	Subresource string
}

// Version is one version of the object.
type Version struct {
	ResourceVersion string
	UID             string
	ManagedFields   []metav1.ManagedFieldsEntry
	// Object is the object as JSON decoded with json.Decoder.UseNumber.
	Object map[string]any
}

// Leaf is one value a write sets, at Path below the object's root.
type Leaf struct {
	Path  fieldpath.Path
	Value any
	// Unchecked: the write touches Path but its stored value cannot be
	// predicted (a JSON Patch append): only the path counts.
	Unchecked bool
}

// Write is a sent write, as the settle sees it.
type Write struct {
	Writer Writer
	Base   Version
	// Sets are the values the write sets.
	Sets []Leaf
	// Removals are the fields the write removes.
	Removals []fieldpath.Path
	// Stamps: the write sets at least one value, so when stored it
	// stamps its entry's time with the second it was stored.
	Stamps bool
	// body is the sent patch, replayed on the base by First.
	body body
}

// First decides w from next, the first version after w's base in the
// object's history: the only version w can have produced. It is w's only
// when it is exactly the base plus w, every difference explained by s, the
// server's schema for the object (nil: not read; then a difference only a
// schema could explain leaves the outcome Unknown, with NeedsSchema set).
func First(w Write, next Version, s *Schema) Decision {
	if next.UID != w.Base.UID {
		return Decision{Outcome: Conflict, Why: "the object was deleted and made again"}
	}
	mine, other := stamps(w, next)
	if other != "" && mine == "" {
		return Decision{Outcome: Conflict, Why: fmt.Sprintf("the first write after the base stamped the managedFields entry of %s, not this writer's", other)}
	}
	g, err := w.compareFirst(next, s)
	switch {
	case err != nil:
		return Decision{Outcome: Unknown, Why: fmt.Sprintf("the base plus this write cannot be compared with the first write after the base: %v", err)}
	case g.differs != "":
		return Decision{Outcome: Conflict, Why: "the first write after the base is not the base plus this write: " + g.differs}
	case g.unexplained != "" && s == nil:
		return Decision{Outcome: Unknown, NeedsSchema: true, Why: fmt.Sprintf("the first write after the base differs from the base plus this write at %s, "+
			"which only the server's schema for the object could explain (pruned or defaulted), and it could not be read", g.unexplained)}
	case g.unexplained != "":
		return Decision{Outcome: Unknown, Why: fmt.Sprintf("the first write after the base differs from the base plus this write at %s", g.unexplained)}
	case other != "":
		return Decision{Outcome: Unknown, Why: fmt.Sprintf("the first write after the base stamped the managedFields entries of this writer and of %s", other)}
	}
	if same, err := (Write{Base: w.Base}).compareFirst(next, s); err == nil && same == (gap{}) {
		return Decision{Outcome: Unknown, Why: "the first write after the base holds nothing the base does not: it shows no change of this write"}
	}
	return Decision{Outcome: Landed, Why: "the first write after the base is exactly the base plus this write"}
}

// Fresh decides w from a read past the base, without the history: other
// writes may have come after w's.
func Fresh(w Write, fresh Version) Decision {
	if fresh.UID != w.Base.UID {
		return Decision{Outcome: Conflict, Why: "the object was deleted and made again"}
	}
	mine, _ := stamps(w, fresh)
	v := w.check(fresh)
	if v.held == "" && v.differs == "" && v.missing == "" && w.checkable() {
		// The server stored exactly what was sent, or another writer the
		// same: what was decided is on the server either way. A stamp of
		// this writer's entry alone is not enough: a writer sharing the
		// manager name stamps it too, and a missing field may be one this
		// write never stored (the history tells pruned from lost).
		return Decision{Outcome: Landed, Why: "the object holds every value this write sets and none it removes"}
	}
	if mine == "" && w.Stamps && timeOrdersOut(w, fresh) {
		return Decision{Outcome: Conflict, Why: "this writer's managedFields entry was not stamped after the base, and a stored write would have stamped it " +
			"with a later second than it holds"}
	}
	why := "this writer's managedFields entry is unchanged since the base, which a write stored in the same second also leaves"
	switch {
	case v.held != "":
		why = fmt.Sprintf("the object still holds %s, which this write removes", v.held)
	case v.differs != "":
		why = fmt.Sprintf("the object holds another value at %s than this write set (overwritten since, or never stored)", v.differs)
	case v.missing != "":
		why = fmt.Sprintf("the object lacks %s, which this write set (pruned, removed since, or never stored)", v.missing)
	case mine != "":
		why = "this writer's managedFields entry was stamped after the base, by this write or a writer that shares its manager name"
	}
	return Decision{Outcome: Unknown, Why: why}
}

// timeOrdersOut reports whether w, stored, must have stamped its entry
// with a later second than the base's entry holds: the base already holds
// a later time (w came after the base), and the entry has the same time in
// fresh.
func timeOrdersOut(w Write, fresh Version) bool {
	b, f := entry(w.Base.ManagedFields, w.Writer), entry(fresh.ManagedFields, w.Writer)
	if b == nil || f == nil || b.Time == nil || f.Time == nil || !f.Time.Equal(b.Time) {
		return false
	}
	for i := range w.Base.ManagedFields {
		if t := w.Base.ManagedFields[i].Time; t != nil && t.After(b.Time.Time) {
			return true
		}
	}
	return false
}

func entry(mfs []metav1.ManagedFieldsEntry, w Writer) *metav1.ManagedFieldsEntry {
	for i := range mfs {
		if mfs[i].Manager == w.Manager && mfs[i].Operation == w.Operation && mfs[i].Subresource == w.Subresource {
			return &mfs[i]
		}
	}
	return nil
}

// stamps compares the managedFields of the base and of next: mine is set
// when w's entry was stamped (new, a later time, or a field gained),
// other names another entry that was, or that took a field from w's entry
// which next still holds.
func stamps(w Write, next Version) (mine, other string) {
	if w.Writer.Manager == "" {
		return "", "" // the entry this writer stamps is not known
	}
	for i := range next.ManagedFields {
		n := &next.ManagedFields[i]
		wr := Writer{Manager: n.Manager, Operation: n.Operation, Subresource: n.Subresource}
		b := entry(w.Base.ManagedFields, wr)
		if !stamped(b, n) {
			continue
		}
		name := fmt.Sprintf("%s (%s, subresource %q)", n.Manager, n.Operation, n.Subresource)
		if wr == w.Writer {
			mine = name
		} else if other == "" {
			other = name
		}
	}
	if other == "" {
		if lost := lostHeld(entry(w.Base.ManagedFields, w.Writer), entry(next.ManagedFields, w.Writer), othersOwn(w), next.Object); lost != "" {
			other = "another manager, which took " + lost + " from this writer"
		}
	}
	return mine, other
}

func stamped(base, next *metav1.ManagedFieldsEntry) bool {
	if base == nil {
		return true
	}
	if next.Time != nil && (base.Time == nil || next.Time.After(base.Time.Time)) {
		return true
	}
	bs, ns := fieldSet(base), fieldSet(next)
	return bs != nil && ns != nil && !ns.Difference(bs).Empty()
}

// lostHeld names a field the base's entry owned that next's entry does not,
// while the object still holds it: another manager took it (unless one
// already owned it at the base: an apply that leaves out a co-owned field
// lets it go, and the server keeps it for the other).
func lostHeld(base, next *metav1.ManagedFieldsEntry, others *fieldpath.Set, obj map[string]any) string {
	if base == nil {
		return ""
	}
	bs := fieldSet(base)
	if bs == nil {
		return ""
	}
	ns := fieldSet(next)
	lost := bs.Leaves()
	if ns != nil {
		lost = lost.Difference(ns)
	}
	found := ""
	lost.Iterate(func(p fieldpath.Path) {
		if _, ok := lookup(obj, p); ok && found == "" && !others.Has(p) {
			found = p.String()
		}
	})
	return found
}

func fieldSet(e *metav1.ManagedFieldsEntry) *fieldpath.Set {
	if e == nil || e.FieldsV1 == nil {
		return nil
	}
	s := &fieldpath.Set{}
	if err := s.FromJSON(bytes.NewReader(e.FieldsV1.Raw)); err != nil {
		return nil
	}
	return s
}

// checkable reports whether values can corroborate w at all: it sets a
// value whose stored form is predictable, or removes a field.
func (w Write) checkable() bool {
	return len(w.Removals) > 0 || slices.ContainsFunc(w.Sets, func(l Leaf) bool { return !l.Unchecked })
}
