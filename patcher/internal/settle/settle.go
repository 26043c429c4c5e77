package settle

import (
	"fmt"
	"slices"
	"time"

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
	// NeedsServerBase: the outcome is Unknown because the base may not be
	// what the server held at its resourceVersion (no managedFields, or
	// metadata a status write does not change differs: a cache that
	// transforms its objects served it); First given the server's own
	// version at that resourceVersion may decide.
	NeedsServerBase bool
}

// Writer is the managedFields entry a write of this patcher stamps: the
// server keeps one per (manager, operation, subresource) and, for an
// Update, per apiVersion too (an apply's entry is one across versions).
type Writer struct {
	Manager     string
	Operation   metav1.ManagedFieldsOperationType
	Subresource string
	// APIVersion is the apiVersion the write is sent with ("group/version").
	APIVersion string
}

// writerOf is the Writer whose entry e is, as the server tells entries
// apart (k8s.io/apiserver's BuildManagerIdentifier): an apply's entry has
// no apiVersion of its own.
func writerOf(e *metav1.ManagedFieldsEntry) Writer {
	return Writer{Manager: e.Manager, Operation: e.Operation, Subresource: e.Subresource, APIVersion: e.APIVersion}.id()
}

// id is w as the server tells entries apart.
func (w Writer) id() Writer {
	if w.Operation == metav1.ManagedFieldsOperationApply {
		w.APIVersion = ""
	}
	return w
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
	// Stamps: the write adds or changes at least one value of the base,
	// so when stored it stamps its entry's time with the second it was
	// stored (adds). A write that only removes (items of a map list, a
	// condition, map keys) stamps no entry at all.
	Stamps bool
	// Token is the write token the write carries (nil: none): the first,
	// exact evidence (token.go).
	Token *Token
	// body is the sent patch, replayed on the base by First.
	body body
}

// First decides w from next, the first version after w's base in the
// object's history: the only version w can have produced. Each outcome
// needs its own evidence (the package documentation): Conflict, that
// another request wrote next (another entry stamped and not this
// writer's, a scalar this write sets holding another one while this
// writer's entry shows no write, or the object made again); Landed, that
// this writer's entry was stamped, no other was, and next is exactly the
// base plus w, every difference explained by s, the server's schema for
// the object (nil: not read; then a difference only a schema could explain
// leaves the outcome Unknown, with NeedsSchema set). Anything else,
// values that look like this write's or not, is Unknown.
func First(w Write, next Version, s *Schema) Decision {
	if next.UID != w.Base.UID {
		return Decision{Outcome: Conflict, Why: "the object was deleted and made again"}
	}
	ev := evidenceOf(w, next)
	if ev.other != "" && ev.mine == "" {
		return Decision{Outcome: Conflict, Why: fmt.Sprintf("the first write after the base stamped the managedFields entry of %s, not this writer's", ev.other)}
	}
	if at := w.disagrees(next); at != "" {
		return Decision{Outcome: Conflict, Why: fmt.Sprintf("the first write after the base holds another value at %s than this write sets, "+
			"which the server does not make of a stored write", at)}
	}
	g, err := w.compareFirst(next, s)
	switch {
	case err != nil:
		return Decision{Outcome: Unknown, Why: fmt.Sprintf("the base plus this write cannot be compared with the first write after the base: %v", err)}
	case g.differs != "":
		return Decision{Outcome: Unknown, NeedsServerBase: g.outside, Why: "the first write after the base is not the base plus this write (" + g.differs + "), " +
			"which the server may have made of this write (a default of another version, a mutating webhook) as well as another writer: nothing shows whose it is"}
	case g.unexplained != "" && s == nil:
		return Decision{Outcome: Unknown, NeedsSchema: true, Why: fmt.Sprintf("the first write after the base differs from the base plus this write at %s, "+
			"which only the server's schema for the object could explain (pruned or defaulted), and it could not be read", g.unexplained)}
	case g.unexplained != "":
		return Decision{Outcome: Unknown, Why: fmt.Sprintf("the first write after the base differs from the base plus this write at %s", g.unexplained)}
	case ev.thin != "":
		return Decision{Outcome: Unknown, NeedsServerBase: ev.thinBase, Why: "the first write after the base holds the values of this write, which another writer may have written too, and " + ev.thin}
	case ev.other != "":
		return Decision{Outcome: Unknown, Why: fmt.Sprintf("the first write after the base stamped the managedFields entries of this writer and of %s", ev.other)}
	case ev.mine == "":
		return Decision{Outcome: Unknown, Why: "the first write after the base holds the values of this write, which another writer may have written too, " +
			"and stamped no managedFields entry that tells whose it is (this writer's entry already held its second, as another's may have)"}
	}
	if same, err := (Write{Base: w.Base}).compareFirst(next, s); err == nil && same == (gap{}) {
		return Decision{Outcome: Unknown, Why: "the first write after the base holds nothing the base does not: it shows no change of this write"}
	}
	return Decision{Outcome: Landed, Why: "the first write after the base stamped this writer's managedFields entry, " + ev.mine + ", and is exactly the base plus this write"}
}

// Fresh decides w from a read past the base, without the history: other
// writes may have come after w's, so the read can only prove w was not
// stored (Conflict); values that look like w's prove nothing (another
// writer may have stored the same values from the same base: two
// increments counted once), so Landed needs the history (First).
func Fresh(w Write, fresh Version) Decision {
	if fresh.UID != w.Base.UID {
		return Decision{Outcome: Conflict, Why: "the object was deleted and made again"}
	}
	if w.Writer.Manager != "" && w.Stamps && timeOrdersOut(w, fresh) {
		return Decision{Outcome: Conflict, Why: "this writer's managedFields entry was not stamped after the base, and a stored write would have stamped it " +
			"with a later second than it holds"}
	}
	why := "this writer's managedFields entry is unchanged since the base, which a write stored in the same second also leaves"
	v := w.check(fresh)
	mine := ""
	if e := entry(fresh.ManagedFields, w.Writer); w.Writer.Manager != "" && e != nil && stamped(entry(w.Base.ManagedFields, w.Writer), e) {
		mine = "stamped"
	}
	switch {
	case v.held != "":
		why = fmt.Sprintf("the object still holds %s, which this write removes", v.held)
	case v.differs != "":
		why = fmt.Sprintf("the object holds another value at %s than this write set (overwritten since, or never stored)", v.differs)
	case v.missing != "":
		why = fmt.Sprintf("the object lacks %s, which this write set (pruned, removed since, or never stored)", v.missing)
	case mine != "":
		why = "this writer's managedFields entry was stamped after the base, by this write or a writer that shares its manager name"
	case w.checkable():
		why = "the object holds every value this write sets, which another writer may have stored from the same base"
	}
	return Decision{Outcome: Unknown, Why: why}
}

// Held decides an apply without the lock from a read past the base: such
// an apply asks for its values, not for the first write after the base
// (it may be stored at any time, and sending it again is the same apply),
// so a read that holds every value it sets and none it removes settles it.
func Held(w Write, fresh Version) Decision {
	if fresh.UID != w.Base.UID {
		return Decision{Outcome: Conflict, Why: "the object was deleted and made again"}
	}
	if v := w.check(fresh); v.held == "" && v.differs == "" && v.missing == "" && w.checkable() {
		return Decision{Outcome: Landed, Why: "the object holds every value this apply without the lock sets and none it removes"}
	}
	return Fresh(w, fresh)
}

// timeOrdersOut reports whether w, stored, must have stamped its entry
// with a later second than the base's entry holds: the base already holds
// a later time (w came after the base), and the entry has the same time in
// fresh. Only times the server can have stamped order anything: a client
// may write managedFields with any time, and one later than now (the
// clock the server's is taken for) is no stamp; then nothing is ordered.
func timeOrdersOut(w Write, fresh Version) bool {
	b, f := entry(w.Base.ManagedFields, w.Writer), entry(fresh.ManagedFields, w.Writer)
	if b == nil || f == nil || b.Time == nil || f.Time == nil || !f.Time.Equal(b.Time) {
		return false
	}
	later, horizon := false, clockNow().Add(time.Second)
	for i := range w.Base.ManagedFields {
		t := w.Base.ManagedFields[i].Time
		switch {
		case t == nil:
		case t.After(horizon):
			return false
		case t.After(b.Time.Time):
			later = true
		}
	}
	return later
}

// clockNow is the clock timeOrdersOut takes for the server's.
var clockNow = time.Now

// checkable reports whether values can corroborate w at all: it sets a
// value whose stored form is predictable, or removes a field.
func (w Write) checkable() bool {
	return len(w.Removals) > 0 || slices.ContainsFunc(w.Sets, func(l Leaf) bool { return !l.Unchecked })
}
