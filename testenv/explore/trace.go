package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/faults"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/judge"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/violation"

	"fmt"
	"strings"
)

// trace is what a schedule did: the steps it ran (the one running in
// cur), the choices that replay them, its crashes, and the violations it
// broke. The other concerns of a run read the step being run through it.
type trace struct {
	steps  []Step
	chosen []scriptStep
	cur    *stepState
	// ch makes the schedule's choices; drain marks the drain's steps.
	ch    *chooser
	drain bool
	// crashes counts the crashes of this schedule.
	crashes int
	// at is the chosen step being run; cut, the bounds that cut the
	// schedule's choices (deepen.go), first at chosen step cutAt.
	at    int
	cut   boundSet
	cutAt int
	// failed is what the schedule broke: the first violation, the others
	// in its Also (internal/violation); disabled the invariants
	// Options.Disable turns off.
	failed   *violation.Record
	disabled map[string]bool
	// named is the write the last message's note named (writecall.go).
	named *namedWrite
}

// stepState is the step being run.
type stepState struct {
	step  Step
	seen  map[book.Key]int // newest version of each object this step saw
	lags  []int            // the lag of each cached read
	plan  []int            // replay: the lags to use
	wrote bool
	// action marks a user action's step.
	action bool
	// writesDone counts successful writes; crash is where the process
	// crashed, crashPlan where a replay makes it crash.
	writesDone       int
	crash, crashPlan crashPoint
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
}

func (s *stepState) seenOrNone(k book.Key) int {
	if s == nil {
		return -1
	}
	if v, ok := s.seen[k]; ok {
		return v
	}
	return -1
}

// fail records a violation. The schedule goes on to its steady state, so
// that later violations of the same schedule show in Also.
func (t *trace) fail(invariant, msg string) { t.failOn(invariant, failDetail{}, msg) }

// failDetail is what a violation is about, beside its message
// (violation.Detail).
type failDetail = violation.Detail

// failOn is fail with what the violation is about; the first names as
// its Cause the write the message's note named (writecall.go).
func (t *trace) failOn(invariant string, d failDetail, msg string) {
	named := t.named
	t.named = nil
	if t.disabled[invariant] {
		return
	}
	if t.failed != nil {
		t.failed.Add(invariant, d, msg)
		return
	}
	t.failed = violation.New(invariant, d, msg)
	if named != nil && strings.HasSuffix(msg, named.note) {
		w := named.w
		t.failed.Cause = &w
	}
}

// retract takes back the violation of invariant with msg, which the
// schedule's judgement after its end cleared (violation.Record.Retract).
func (t *trace) retract(invariant, msg string) {
	if t.failed != nil && t.failed.Retract(invariant, msg) {
		t.failed = nil
	}
}

// timeOnly marks the violation of invariant with msg a loss of times
// only, or of an atomic list's order only (order), note ending its
// message (violation.Record.MarkTimeOnly).
func (t *trace) timeOnly(invariant, msg, note string, order bool) {
	if t.failed != nil {
		t.failed.MarkTimeOnly(invariant, msg, note, order)
	}
}

// restored marks the violation of invariant with msg a lost write whose
// lost values the steady state holds again (violation.Record.MarkRestored).
func (t *trace) restored(invariant, msg string, r judge.Restoration) {
	if t.failed != nil {
		t.failed.MarkRestored(invariant, msg, r)
	}
}

// violationOf is the violation b records, sharing its names and lists.
func violationOf(b *violation.Record) *Violation {
	return &Violation{Invariant: b.Invariant, Message: b.Message, Cause: b.Cause, Also: b.Also, names: b.Names, about: b.About, alsoAbout: b.AlsoAbout}
}

// failWith records the violation of invariant a judge found
// (internal/judge).
func (t *trace) failWith(invariant string, f judge.Failure) {
	t.failOn(invariant, failDetail{Object: f.Object, Fields: f.Fields, TimeOnly: f.TimeOnly, OrderOnly: f.OrderOnly}, f.Message)
}

// judged is the schedule's steps as internal/judge reads them, each with
// the chosen item it ran.
func (t *trace) judged() []judge.Step {
	out := make([]judge.Step, len(t.steps))
	for i, s := range t.steps {
		j := judge.Step{Index: s.Index, Reconciler: s.Reconciler, Object: s.Object, Result: s.Result}
		if i < len(t.chosen) {
			j.It = t.chosen[i].It
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
func (t *trace) lastWrote() bool {
	s := t.steps[len(t.steps)-1]
	for _, w := range s.Writes {
		if w.Version > 0 {
			return true
		}
	}
	return false
}

// request names the step being run, for messages: "step 2 (db reconciles
// Database ns/db)".
func (t *trace) request() string {
	if t.cur == nil {
		return "setup"
	}
	s := t.cur.step
	if s.Object == "" {
		return fmt.Sprintf("step %d (%s)", s.Index, s.Reconciler)
	}
	return fmt.Sprintf("step %d (%s reconciles %s)", s.Index, s.Reconciler, s.Object)
}

// staleNote names the running step's first stale cached read (for an
// in-flight write, the sending step's): ", after a stale read of X (vN,
// newest vM)", or "".
func (t *trace) staleNote() string {
	reads := t.cur.step.Reads
	if t.cur.sentBy > 0 && t.cur.sentBy <= len(t.steps) {
		reads = t.steps[t.cur.sentBy-1].Reads
	}
	for _, rd := range reads {
		if !rd.API && rd.Version < rd.Newest {
			return fmt.Sprintf(", after a stale read of %s (v%d, newest v%d)", rd.Object, rd.Version, rd.Newest)
		}
	}
	return ""
}
