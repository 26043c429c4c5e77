package judge

import (
	"context"
	"fmt"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/steady"
)

// The built-in invariants' names: a violation's invariant, and the names
// Options.Disable takes. The explorer's exported Invariant* constants are
// these, and say what each means.
const (
	NameLostWrite               = "no lost write"
	NameObservedGeneration      = "observedGeneration"
	NameObservedGenerationStuck = "observedGeneration caught up"
	NameConverges               = "converges"
	NameUser                    = "user invariant"
	NameNoPanic                 = "no panic"
	NameOwnDelete               = "no delete of own creation"
	NameDeletedStaysDeleted     = "deleted stays deleted"
	NameErrorLoop               = "no error loop"
	NameRecordLive              = "record names a live object"
	NameStuckFinalizer          = "no stuck finalizer"
)

// Invariant is a built-in invariant, a row of the table Builtins: each is
// a value below (the own-delete ones with the state they keep,
// owndelete.go), its judge a file of its own in this package. Checks
// runs the onWrite checks at each new version the book records
// (Checks.CheckWrite), in the table's order, and the onSteady checks at
// each steady state (Checks.CheckSteady), each recording the judge's
// Failure under the invariant's name. Checks made elsewhere say where.
type Invariant struct {
	// Name is the violation's invariant, and the name Options.Disable
	// takes.
	Name string
	// Required: Options.Disable cannot turn it off.
	Required bool
	// Severity ranks its violations in a report (SeverityOf).
	Severity Severity
	// onWrite, if set, checks h's newest version, which replaced prev
	// (nil: a create).
	onWrite func(c *Checks, h *book.History, prev map[string]any)
	// onSteady, if set, checks a steady state.
	onSteady func(ctx context.Context, c *Checks, s Steady)
}

// Builtins are the built-in invariants, in the order docs/explore.md's
// "What is checked" lists them (a test of the explorer keeps the two in
// step).
var Builtins = []Invariant{
	invLostWrite, invObservedGeneration, invObservedGenerationStuck, invConverges,
	invOwnDelete, invDeletedStaysDeleted, invErrorLoop, invStuckFinalizer, invRecordLive,
	invUserInvariant, invNoPanic,
}

// invConverges: the drain reaches a steady state (the explorer's drain
// checks it: a round that ends where an earlier one ended, or no steady
// state within the drain's bound).
var invConverges = Invariant{Name: NameConverges, Severity: stuck}

// invUserInvariant: Scenario.Invariant holds in every steady state.
var invUserInvariant = Invariant{
	Name:     NameUser,
	Required: true,
	Severity: Severity{2, "the scenario's own invariant"},
	onSteady: func(ctx context.Context, c *Checks, s Steady) {
		if s.User == nil {
			return
		}
		if err := s.User(ctx, s.Fresh()); err != nil {
			c.trace.Fail(NameUser, Failure{Message: err.Error()})
		}
	},
}

// invNoPanic: no reconcile or action panics (the explorer's step
// recovers and fails it).
var invNoPanic = Invariant{Name: NameNoPanic, Required: true, Severity: Severity{2, "a panic"}}

// invLostWrite: a write changes a field an earlier step set, and the
// write was computed from a version older than the one that write made
// (Based; LostWrite; judged again after the schedule, lostsuspect.go).
var invLostWrite = Invariant{
	Name:     NameLostWrite,
	Severity: Severity{2, "a decision lost"},
	onWrite:  (*Checks).checkLostWrite,
	onSteady: func(_ context.Context, c *Checks, _ Steady) { c.checkRestored() },
}

// invObservedGeneration: at each write, status.observedGeneration never
// goes backwards nor passes metadata.generation (ObservedGeneration).
var invObservedGeneration = Invariant{
	Name:     NameObservedGeneration,
	Severity: Severity{1, "a value goes backwards"},
	onWrite: func(c *Checks, h *book.History, prev map[string]any) {
		for _, f := range ObservedGeneration(h, prev) {
			f.Message += c.trace.WriteNote()
			c.trace.Fail(NameObservedGeneration, f)
		}
	},
}

// invObservedGenerationStuck: in a steady state,
// status.observedGeneration is below metadata.generation, or absent at
// generation 1 where the same schedule with fresh reads and no crash
// sets it (judged after the schedule, fresh.go;
// ObservedGenerationStuck).
var invObservedGenerationStuck = Invariant{
	Name:     NameObservedGenerationStuck,
	Severity: stuck,
	onSteady: func(_ context.Context, c *Checks, s Steady) {
		c.checkObservedGenerationStuck(s)
	},
}

// invOwnDelete: a reconciler deletes what a reconciler of the schedule
// created, after a stale read or a crash since (Creations.CheckDelete,
// at the write; judged again after the schedule, fresh.go).
var invOwnDelete = Invariant{Name: NameOwnDelete, Severity: Severity{2, "a decision made twice"}}

// invDeletedStaysDeleted: a reconciler creates again an object of its
// own For kind that a user action deleted (Creations.NoteWritten, at the
// write).
var invDeletedStaysDeleted = Invariant{Name: NameDeletedStaysDeleted, Severity: Severity{2, "a decision undone"}}

// invErrorLoop: a reconcile returns an error in the steady round (fresh
// reads, nothing written): it is retried forever (ErrorLoop).
var invErrorLoop = Invariant{
	Name:     NameErrorLoop,
	Severity: stuck,
	onSteady: func(_ context.Context, c *Checks, s Steady) {
		if f, ok := ErrorLoop(s.Steps[s.First:]); ok {
			c.trace.Fail(NameErrorLoop, f)
		}
	},
}

// invStuckFinalizer: in a steady state an object being deleted keeps a
// finalizer a reconciler of this schedule added, and nothing will remove
// it (StuckFinalizer).
var invStuckFinalizer = Invariant{
	Name:     NameStuckFinalizer,
	Severity: stuck,
	onSteady: func(_ context.Context, c *Checks, s Steady) {
		c.CheckFinalizers(s.Steps, s.First, s.ForKinds)
	},
}

// invRecordLive: in a steady state a Scenario.Records field names no
// live object, as a fresh reader Lists the server (RecordLive).
var invRecordLive = Invariant{
	Name:     NameRecordLive,
	Severity: Severity{2, "a record names what is gone"},
	onSteady: func(ctx context.Context, c *Checks, s Steady) {
		if f, ok := RecordLive(ctx, c.book, s.Records, s.Fresh()); ok {
			c.trace.Fail(NameRecordLive, f)
		}
	},
}

// Disableable are the names Options.Disable may give.
func Disableable() []string {
	var out []string
	for _, inv := range Builtins {
		if !inv.Required {
			out = append(out, inv.Name)
		}
	}
	return out
}

// Disabled reads Options.Disable (names) against the table: the
// invariants it turns off.
func Disabled(names []string) (map[string]bool, error) {
	disabled := map[string]bool{}
	for _, name := range names {
		found := false
		for _, inv := range Builtins {
			if inv.Name != name {
				continue
			}
			if inv.Required {
				return disabled, fmt.Errorf("explore: Options.Disable: %q cannot be turned off", name)
			}
			found = true
		}
		if !found {
			return disabled, fmt.Errorf("explore: Options.Disable: %q is not a built-in invariant (one of %q)", name, Disableable())
		}
		disabled[name] = true
	}
	return disabled, nil
}

// A search keeps every distinct violation it finds and reports the most
// severe first. Severity is a column of the table: a value that goes
// backwards ranks first, then a decision lost, undone or made twice,
// then an object stuck; then a lost write whose lost values the steady
// state holds again, written again by a later write, or that ended with
// an object being deleted (no lasting harm to those fields:
// restored.go); a lost write whose overwritten and
// overwriting values differ only in time-like fields (a timestamp set
// again a second later, every other field equal), or whose fresh write
// would have sent an atomic list's same items in another order (times
// aside: no decision lost, JudgeAfter), ranks last, and its message says
// which.

// Severity is a rank (1: most severe) and its reason.
type Severity struct {
	Rank   int
	Reason string
}

// stuck is the severity of an object stuck.
var stuck = Severity{3, "an object stuck"}

// RestoredRank is the rank of a lost write whose lost values the steady
// state holds again (RestoredSeverity).
const RestoredRank = 4

// TimeOnly is the severity of a lost write of time-like fields only;
// OrderOnly, of an atomic list's order only: the same rank, last.
var (
	TimeOnly  = Severity{5, "a lost write whose values differ only in time-like fields"}
	OrderOnly = Severity{TimeOnly.Rank, "a lost write whose fresh write would have sent the same items in another order"}
)

// RestoredSeverity is the severity of a lost write whose lost values
// were written again as r says.
func RestoredSeverity(r steady.Restoration) Severity {
	by := fmt.Sprintf("at step %d", r.Step)
	if r.Step == 0 {
		by = fmt.Sprintf("in v%d", r.Version)
	}
	if r.Deleting {
		return Severity{RestoredRank, "a decision lost on an object being deleted: its deletion asked for " + by +
			", it is being deleted in the steady state, held by no writer's finalizer, the lost values going with it"}
	}
	if r.Ended {
		return Severity{RestoredRank, "a decision lost for a while: the object, being deleted, was gone " + by + " before the steady state, the lost values with it"}
	}
	but := ""
	if r.ButTimes {
		but = ", but for time-like fields,"
	}
	return Severity{RestoredRank, "a decision lost for a while: the lost values were written again" + but + " " + by + " before the steady state"}
}

// SeverityOf is the rank and reason of f, a violation of invariant: a
// lost write of time-like fields only (Failure.TimeOnly), or of an
// atomic list's order only (Failure.OrderOnly), ranks last; one whose
// lost values were written again (Failure.Restored), below what
// persists.
func SeverityOf(invariant string, f Failure) Severity {
	switch {
	case invariant == NameLostWrite && f.TimeOnly:
		return TimeOnly
	case invariant == NameLostWrite && f.OrderOnly:
		return OrderOnly
	}
	if invariant == NameLostWrite && f.Restored != nil {
		return RestoredSeverity(*f.Restored)
	}
	for _, inv := range Builtins {
		if inv.Name == invariant {
			return inv.Severity
		}
	}
	return Severity{3, "another invariant"}
}
