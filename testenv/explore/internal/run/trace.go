package run

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/faults"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/judge"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/outcome"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/schedule"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/steady"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/violation"

	"fmt"
	"strings"
)

// Trace is what a schedule did: the steps it ran (the one running in
// Cur), the choices that replay them, its crashes, and the violations it
// broke. The other concerns of a run read the step being run through it;
// the search reads the rest when the schedule ends.
type Trace struct {
	Steps  []outcome.Step
	Chosen []schedule.Chosen
	Cur    *StepState
	// Ch makes the schedule's choices; Drain marks the drain's steps.
	Ch    *Chooser
	Drain bool
	// Crashes counts the crashes of this schedule.
	Crashes int
	// At is the chosen step being run; Cut, the bounds that cut the
	// schedule's choices (NoteCut), first at chosen step CutAt.
	At    int
	Cut   Cut
	CutAt int
	// Failed is what the schedule broke: the first violation, the others
	// in its Also (internal/violation); Disabled the invariants
	// Options.Disable turns off.
	Failed   *violation.Record
	Disabled map[string]bool
	// named is the write the last message's note named (writecall.go).
	named *namedWrite
	// Deferred is what the drain round being run deferred (deferred.go).
	Deferred deferral
	// Explored counts what the reconciles explored (explored.go).
	Explored Explored
}

// StepState is the step being run: its record (Step) and what it saw
// (Seen: the newest version, from 0, of each object), and what the run
// keeps of it while it runs.
type StepState struct {
	Step  outcome.Step
	Seen  map[book.Key]int
	lags  []int // the lag of each cached read
	plan  []int // replay: the lags to use
	wrote bool
	// action marks a user action's step.
	action bool
	// writesDone counts successful writes; crash is where the process
	// crashed, crashPlan where a replay makes it crash.
	writesDone       int
	crash, crashPlan schedule.Crash
	// held are the writes this step sent after a crashInFlight
	// (zombie.go), sent how many it tried to; sentBy, on a delivery's
	// step, is the step that sent it, sentNth which of its writes in
	// flight (from 0).
	held            []*faults.InFlight
	sent            int
	sentBy, sentNth int
	// applying marks the version being recorded as made by a server-side
	// apply (recordWrite): "no lost write" then reads managedFields.
	applying bool
	// judged marks the version being recorded as made by a write of this
	// step, computed from version based (Write.Based: 1-based, 0 none;
	// intercept.LockOf), by which "no lost write" judges it.
	judged bool
	based  int
	// sentAt, on a delivery's step, is the call site of the write the
	// old leader sent.
	sentAt string
	// made counts the new versions of each object this step's writes
	// made (internal/judge/lostsuspect.go).
	made map[book.Key]int
	// storeReads counts its reads of informer stores (stores.go).
	storeReads int
}

// seenOrNone is the newest version of k the step had seen (from 0), -1
// for none or outside a step (book.Seen).
func (s *StepState) seenOrNone(k book.Key) int {
	if s == nil {
		return -1
	}
	return book.Seen(s.Seen, k)
}

// fail records a violation. The schedule goes on to its steady state, so
// that later violations of the same schedule show in Also.
func (t *Trace) fail(invariant, msg string) { t.failOn(invariant, violation.Detail{}, msg) }

// failOn is fail with what the violation is about; each names as its
// Cause the write the message's note named (writecall.go).
func (t *Trace) failOn(invariant string, d violation.Detail, msg string) {
	named := t.named
	t.named = nil
	if t.Disabled[invariant] {
		return
	}
	if named != nil && strings.HasSuffix(msg, named.note) {
		w := named.w
		d.Cause = &w
	}
	if t.Failed != nil {
		t.Failed.Add(invariant, d, msg)
		return
	}
	t.Failed = violation.New(invariant, d, msg)
}

// retract takes back the violation of invariant with msg, which the
// schedule's judgement after its end cleared (violation.Record.Retract).
func (t *Trace) retract(invariant, msg string) {
	if t.Failed != nil && t.Failed.Retract(invariant, msg) {
		t.Failed = nil
	}
}

// timeOnly marks the violation of invariant with msg a loss of times
// only, or of an atomic list's order only (order), note ending its
// message (violation.Record.MarkTimeOnly).
func (t *Trace) timeOnly(invariant, msg, note string, order bool) {
	if t.Failed != nil {
		t.Failed.MarkTimeOnly(invariant, msg, note, order)
	}
}

// restored marks the violation of invariant with msg a lost write whose
// lost values the steady state holds again (violation.Record.MarkRestored).
func (t *Trace) restored(invariant, msg string, r steady.Restoration) {
	if t.Failed != nil {
		t.Failed.MarkRestored(invariant, msg, r)
	}
}

// failWith records the violation of invariant a judge found
// (internal/judge).
func (t *Trace) failWith(invariant string, f judge.Failure) {
	t.failOn(invariant, violation.Detail{Object: f.Object, Fields: f.Fields, TimeOnly: f.TimeOnly, OrderOnly: f.OrderOnly}, f.Message)
}

// Judged is the schedule's steps as internal/judge reads them, each with
// the chosen item it ran.
func (t *Trace) Judged() []judge.Step {
	out := make([]judge.Step, len(t.Steps))
	for i, s := range t.Steps {
		j := judge.Step{Index: s.Index, Reconciler: s.Reconciler, Object: s.Object, Result: s.Result}
		if i < len(t.Chosen) {
			j.It = t.Chosen[i].It
		}
		if len(s.Reads) > 0 {
			j.Reads = make([]judge.Read, len(s.Reads))
			for n, rd := range s.Reads {
				j.Reads[n] = judge.Read{Object: rd.Object, Version: rd.Version, Missing: rd.Missing}
			}
		}
		out[i] = j
	}
	return out
}

// lastWrote reports that the last step made a new version.
func (t *Trace) lastWrote() bool {
	s := t.Steps[len(t.Steps)-1]
	for _, w := range s.Writes {
		if w.Version > 0 {
			return true
		}
	}
	return false
}

// request names the step being run, for messages: "step 2 (db reconciles
// Database ns/db)".
func (t *Trace) request() string {
	if t.Cur == nil {
		return "setup"
	}
	s := t.Cur.Step
	if s.Object == "" {
		return fmt.Sprintf("step %d (%s)", s.Index, s.Reconciler)
	}
	return fmt.Sprintf("step %d (%s reconciles %s)", s.Index, s.Reconciler, s.Object)
}

// staleNote names the running step's first stale cached read (for an
// in-flight write, the sending step's): ", after a stale read of X (vN,
// newest vM)", or "".
func (t *Trace) staleNote() string {
	reads := t.Cur.Step.Reads
	if t.Cur.sentBy > 0 && t.Cur.sentBy <= len(t.Steps) {
		reads = t.Steps[t.Cur.sentBy-1].Reads
	}
	for _, rd := range reads {
		if !rd.API && rd.Version < rd.Newest {
			return fmt.Sprintf(", after a stale read of %s (v%d, newest v%d)", rd.Object, rd.Version, rd.Newest)
		}
	}
	return ""
}
