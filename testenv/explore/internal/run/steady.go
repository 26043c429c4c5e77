package run

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/judge"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/steady"

	"context"
)

// The built-in invariants are judged on the run by judge.Checks (r.Checks):
// the book calls Checks.CheckWrite at each new version it records, the
// drain checkSteadyState at each steady state; what they find they record
// in the trace through judgeTrace.

// checkSteadyState runs the onSteady checks on r's steady state, whose
// steady round began at step index first.
func (r *Run) checkSteadyState(ctx context.Context, first int) {
	sc := r.ex.Scenario()
	r.Checks.CheckSteady(ctx, judge.Steady{
		Steps: r.Trace.Judged(), First: first, Fresh: r.freshReader,
		Faulted:  r.Cache.Stale > 0 || r.Trace.Crashes > 0 || r.Held.In.Delivered > 0,
		Disabled: r.Trace.Disabled, User: sc.Invariant, Records: sc.Records,
		OGKinds: sc.OGKinds, ForKinds: sc.ForKinds,
	})
}

// NoteFailure notes, for the depth-first search, that the schedule has
// broken an invariant by chosen step step (its depth: the drain).
func (r *Run) NoteFailure(step int) {
	if r.Trace.Failed != nil && r.Track != nil {
		r.Track.Failed(step)
	}
}

// judgeTrace is the run's trace as judge.Checks reads it and records
// what broke in it.
type judgeTrace struct {
	ex Explorer
	t  *Trace
}

func (j judgeTrace) Fail(invariant string, f judge.Failure) { j.t.failWith(invariant, f) }
func (j judgeTrace) Retract(invariant, msg string)          { j.t.retract(invariant, msg) }
func (j judgeTrace) TimeOnly(invariant, msg, note string)   { j.t.timeOnly(invariant, msg, note, false) }
func (j judgeTrace) OrderOnly(invariant, msg, note string)  { j.t.timeOnly(invariant, msg, note, true) }
func (j judgeTrace) Restored(invariant, msg string, r steady.Restoration) {
	j.t.restored(invariant, msg, r)
}
func (j judgeTrace) WriteNote() string { return j.t.writeNote() }

// Acting is the step being run as judge.Checks reads it; nil outside a
// step.
func (j judgeTrace) Acting() *judge.Acting {
	s := j.t.Cur
	if s == nil {
		return nil
	}
	if s.made == nil {
		s.made = map[book.Key]int{}
	}
	a := &judge.Acting{Step: s.Step.Index, Reconciler: s.Step.Reconciler, Object: s.Step.Object, Action: s.action, Drain: s.Step.Drain,
		Crashes: j.t.Crashes, Pos: judge.ChosenPos(j.t.Chosen), Seen: s.Seen, Made: s.made,
		Judged: s.judged, Based: s.based, SentBy: s.sentBy, SentNth: s.sentNth, Applying: s.applying,
		ForKind: j.stepForKind, Request: j.t.request, Stale: j.t.staleNote, Note: j.t.lastWriteNote}
	if s.sentBy > 0 && s.sentBy <= len(j.t.Steps) {
		a.Sender = j.t.Steps[s.sentBy-1].Reconciler
	}
	if s.applying {
		for _, rd := range s.Step.Reads {
			a.Reads = append(a.Reads, judge.Read{Object: rd.Object, Version: rd.Version, Missing: rd.Missing})
		}
	}
	return a
}

// stepForKind is the For kind of the running step's reconciler ("" for
// an action or an in-flight write's delivery).
func (j judgeTrace) stepForKind() string {
	if j.ex == nil {
		return ""
	}
	sc := j.ex.Scenario()
	for i, rc := range sc.Reconcilers {
		if rc.Name == j.t.Cur.Step.Reconciler && i < len(sc.ForKinds) {
			return sc.ForKinds[i].String()
		}
	}
	return ""
}
