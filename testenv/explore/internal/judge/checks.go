package judge

import (
	"context"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/steady"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Checks are the invariants judged on a schedule's book of versions: at
// each new version (the table's onWrite) and in a steady state, for the
// step being run (Trace.Acting); and what they keep to judge after the
// schedule (JudgeAfter). A schedule has one, from NewChecks.
type Checks struct {
	book  *book.Book
	trace Trace
	// own is what reconcilers created and user actions deleted
	// (owndelete.go).
	own Creations
	// ogSuspects are the observedGenerations absent at generation 1 in a
	// steady state, judged after the schedule (fresh.go).
	ogSuspects []ogSuspect
	// lwSuspects are the lost writes judged after the schedule; written
	// what each chosen step's write made, for the judgement that takes
	// this schedule as the fresh one (lostsuspect.go).
	lwSuspects []suspectWrite
	written    map[WriteAt]map[string]any
	// made names the reconciler whose write made each version of each
	// object (by index from 0; none: not a reconciler's), for Writer.Made.
	made map[book.Key]map[int]string
	// lost are the schedule's lost writes, judged in its steady state
	// (restored.go).
	lost []lostValues
}

// Trace is what Checks reads of the schedule being run and where it
// records what broke: the explorer's trace.
type Trace interface {
	// Acting is the step being run; nil outside a step.
	Acting() *Acting
	// Fail records the violation of invariant a judge found; the
	// schedule goes on.
	Fail(invariant string, f Failure)
	// Retract takes back the violation of invariant with message msg,
	// which the judgement after the schedule cleared.
	Retract(invariant, msg string)
	// TimeOnly marks the violation of invariant with message msg, which
	// the judgement after the schedule found a loss of times only, as one
	// (ranked last), note ending its message; it keeps its cause.
	TimeOnly(invariant, msg, note string)
	// OrderOnly is TimeOnly for a loss of an atomic list's order only.
	OrderOnly(invariant, msg, note string)
	// Restored marks the violation of invariant with message msg, a lost
	// write whose lost values the steady state holds again, written
	// again as r says (restored.go): ranked below what persists, its
	// message and cause kept.
	Restored(invariant, msg string, r steady.Restoration)
	// WriteNote names the write whose version is being recorded, for a
	// violation it caused (", by a blind merge patch of status at
	// x.go:42"), "" for none; the violation whose message ends with it
	// keeps that write as its cause.
	WriteNote() string
}

// Acting is the step being run, as Checks and Creations read it.
type Acting struct {
	// Step is its number; Reconciler its reconciler ("action NAME" for a
	// user action's); Object the object it reconciles ("Kind
	// namespace/name"); Action marks a user action's step, Drain one of
	// the drain's.
	Step       int
	Reconciler string
	Object     string
	Action     bool
	Drain      bool
	// Crashes counts the schedule's crashes so far; Pos is the step's
	// place among the schedule's chosen steps but the deliveries of
	// writes in flight (ChosenPos: the same step's in a fresh schedule).
	Crashes int
	Pos     int
	// Seen is the newest version (from 0) of each object the step saw;
	// Made counts the new versions of each object its writes made, which
	// Checks counts on (not nil).
	Seen, Made map[book.Key]int
	// Judged marks the version being recorded as made by a write of this
	// step computed from version Based (from 1; 0: none), by which "no
	// lost write" judges it (Based).
	Judged bool
	Based  int
	// SentBy, on a delivery's step, is the step that sent the write, the
	// old leader's; SentNth which of its writes in flight (from 0);
	// Sender that step's reconciler, whose write it is.
	SentBy, SentNth int
	Sender          string
	// Applying marks the version being recorded as made by a server-side
	// apply: "no lost write" then reads managedFields, and Reads, the
	// step's reads, say what the apply was decided on.
	Applying bool
	Reads    []Read
	// ForKind is the For kind of the step's reconciler ("" for an action
	// or a delivery); Request names the step for messages; Stale names
	// its first stale read (", after a stale read of ...", or ""); Note
	// names the write a delete's violation is about (", by a ..."),
	// called only for a violation.
	ForKind func() string
	Request func() string
	Stale   func() string
	Note    func() string
}

// seen is the newest version of k the step had seen (from 0), -1 for
// none or outside a step.
func (s *Acting) seen(k book.Key) int {
	if s == nil {
		return -1
	}
	return book.Seen(s.Seen, k)
}

// Steady is what the steady-state checks read: the schedule's steps,
// each with its chosen item, the steady round (fresh reads, nothing
// written) beginning at index First; and the scenario's.
type Steady struct {
	Steps []Step
	First int
	// Fresh is a reader of the server as it is now, at least as new as
	// the schedule's writes.
	Fresh func() client.Reader
	// Faulted: the schedule had a stale read, a crash or a write
	// delivered late. Disabled are the invariants Options.Disable turns
	// off.
	Faulted  bool
	Disabled map[string]bool
	// User is Scenario.Invariant (nil: none); Records Scenario.Records,
	// resolved; OGKinds the For kinds whose Go type has
	// status.observedGeneration; ForKinds the reconcilers' For kinds.
	User     func(context.Context, client.Reader) error
	Records  []Record
	OGKinds  map[schema.GroupVersionKind]bool
	ForKinds []schema.GroupVersionKind
}

// NewChecks are the checks of a schedule whose versions b records (its
// callback is CheckWrite) and whose step being run t gives.
func NewChecks(b *book.Book, t Trace) Checks {
	return Checks{book: b, trace: t}
}

// CheckWrite runs the onWrite checks on h's newest version, which
// replaced prev: the book's callback.
func (c *Checks) CheckWrite(h *book.History, prev map[string]any) {
	for _, inv := range Builtins {
		if inv.onWrite != nil {
			inv.onWrite(c, h, prev)
		}
	}
}

// CheckSteady runs the onSteady checks on a steady state.
func (c *Checks) CheckSteady(ctx context.Context, s Steady) {
	for _, inv := range Builtins {
		if inv.onSteady != nil {
			inv.onSteady(ctx, c, s)
		}
	}
}

// WriteBased is the version (from 1; 0: none) a write of k the server
// accepted was computed from (Based, which says what a write is judged
// by): lock is the resourceVersion the server checked ("" for none),
// held the one the sent object carried; based is the step's newest read.
// An accepted lock is a read of the newest version (the step's seen is
// raised to it).
func (c *Checks) WriteBased(k book.Key, lock, held string, based int) int {
	v, read := Based(c.book.History(k), lock, held, based)
	if s := c.trace.Acting(); read >= 0 && read > s.seen(k) {
		s.Seen[k] = read
	}
	return v
}

// NoteWritten runs after each write that made a new version of k, whose
// history is h (Creations.NoteWritten).
func (c *Checks) NoteWritten(k book.Key, h *book.History) {
	if f, ok := c.own.NoteWritten(c.book, k, h, c.trace.Acting()); ok {
		c.trace.Fail(NameDeletedStaysDeleted, f)
	}
}

// CheckDelete runs after a successful delete of k, whose uid it was;
// based is the version the step had seen (Creations.CheckDelete).
func (c *Checks) CheckDelete(k book.Key, uid types.UID, based int) {
	if f, ok := c.own.CheckDelete(c.book, k, uid, based, c.trace.Acting()); ok {
		c.trace.Fail(NameOwnDelete, f)
	}
}

// CheckFinalizers records StuckFinalizer's verdict on the steady round
// of steps from index first; forKinds are the reconcilers' For kinds.
func (c *Checks) CheckFinalizers(steps []Step, first int, forKinds []schema.GroupVersionKind) {
	if f, ok := StuckFinalizer(c.book, steps, first, forKinds); ok {
		c.trace.Fail(NameStuckFinalizer, f)
	}
}

// ogSuspect is an observedGeneration absent at generation 1 in a steady
// state, judged after the schedule: the object, and the violation's
// message.
type ogSuspect struct {
	key book.Key
	msg string
}

// checkObservedGenerationStuck records ObservedGenerationStuck's
// verdict, and keeps an absence at generation 1 to judge after the
// schedule.
func (c *Checks) checkObservedGenerationStuck(s Steady) {
	f, suspect, broke := ObservedGenerationStuck(c.book, s.OGKinds, s.Faulted, !s.Disabled[NameObservedGenerationStuck])
	if !broke {
		return
	}
	if suspect != nil {
		c.ogSuspects = append(c.ogSuspects, ogSuspect{key: *suspect, msg: f.Message})
	}
	c.trace.Fail(NameObservedGenerationStuck, f)
}
