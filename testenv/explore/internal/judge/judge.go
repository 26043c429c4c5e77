// Package judge is the explorer's built-in invariants: their table
// (Builtins: names, which Options.Disable may turn off, the severity a
// report ranks their violations by), a judge of a schedule for each, and
// Checks, what a schedule judges and keeps to judge after its end. Each
// judge reads the book of versions the server held (internal/book) and
// what the schedule's steps did, as the records of this package hold it
// (Step, Read, Writer, Acting), and returns what broke as a Failure;
// Checks runs the table's judges at each new version and in each steady
// state, records each Failure under the invariant's name through Trace,
// and, after the schedule, takes back the suspect violations the same
// schedule with fresh reads clears (JudgeAfter, fresh.go).
//
// It does not hold the run, its trace or the search: the explorer keeps
// the Violation a Failure becomes, the run of a fresh schedule (given to
// JudgeAfter as a function) and the ranking of a report's violations (by
// SeverityOf).
//
// What became of a lost write's values in the steady state (written
// again, or ended with their object) is internal/steady's to say.
//
// It imports of the explorer's module only internal/book,
// internal/schedule and internal/steady (imports_test.go in the
// explorer's folder checks it).
package judge

import (
	"fmt"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/schedule"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/steady"
)

// Failure is what a judge found broken: the object and the fields it is
// about, whether a lost write changed time-like fields only (TimeOnly)
// or, judged after the schedule, an atomic list's order only
// (OrderOnly), both ranked last, and the message.
type Failure struct {
	Object    string
	Fields    []string
	TimeOnly  bool
	OrderOnly bool
	// Restored, for a lost write, is where its lost values were written
	// again before the steady state (restored.go); nil: they were not,
	// or the history cannot show it.
	Restored *steady.Restoration
	Message  string
}

// Step is what the judges read of a step of the schedule: its number
// (from 1), its reconciler ("action NAME" for a user action's), the
// object it reconciled ("Kind namespace/name", "" for none), its result
// ("done", "requeue", "error: ..."), its reads, and the chosen item it
// ran.
type Step struct {
	Index      int
	Reconciler string
	Object     string
	Result     string
	Reads      []Read
	It         schedule.Item
}

// Read is what the judges read of a read of a step: the object, the
// version it saw (from 1), and Missing for an object a lagging List left
// out.
type Read struct {
	Object  string
	Version int
	Missing bool
}

// name names s for messages: "step 2 (db reconciles Database ns/db)",
// or, with no object, "step 3 (in-flight write of ...)".
func (s Step) name() string {
	if s.Object == "" {
		return fmt.Sprintf("step %d (%s)", s.Index, s.Reconciler)
	}
	return fmt.Sprintf("step %d (%s reconciles %s)", s.Index, s.Reconciler, s.Object)
}
