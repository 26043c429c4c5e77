package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/judge"

	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The invariants a Violation names.
const (
	InvariantLostWrite          = "no lost write"
	InvariantObservedGeneration = "observedGeneration"
	// InvariantObservedGenerationStuck: below generation in a steady
	// state, or absent at generation 1 where the same schedule with fresh
	// reads and no crash sets it.
	InvariantObservedGenerationStuck = "observedGeneration caught up"
	InvariantConverges               = "converges"
	InvariantUser                    = "user invariant"
	InvariantNoPanic                 = "no panic"
	// InvariantOwnDelete: a reconciler deleted an object a reconciler of
	// this schedule created (by a create, an apply, any write that made
	// it), after a stale read or a crash since the creation: not what the
	// state it could read asked for.
	InvariantOwnDelete = "no delete of own creation"
	// InvariantDeletedStaysDeleted: a reconciler created again an object
	// of its own For kind that a user action deleted.
	InvariantDeletedStaysDeleted = "deleted stays deleted"
	// InvariantErrorLoop: a reconcile returns an error in a steady state,
	// where nothing changes, so it is retried forever.
	InvariantErrorLoop = "no error loop"
	// InvariantRecordLive: a Scenario.Records field names no live object
	// in a steady state.
	InvariantRecordLive = "record names a live object"
	// InvariantStuckFinalizer: in a steady state, an object being deleted
	// keeps a finalizer a reconciler of this schedule added, and the last
	// reconciles of it returned done, wrote nothing and asked for no
	// requeue: nothing will remove it, and the object is never deleted.
	InvariantStuckFinalizer = "no stuck finalizer"
)

// The built-in invariants are one table, judge.Builtins: each row's
// judge is a file of its own in internal/judge, which also keeps what a
// schedule judges after its end (judge.Checks). The names above are the
// table's (a test keeps the two in step). Options.Disable reads the
// table (validateDisable); the book calls checks.CheckWrite at each new
// version it records, and the drain checkSteadyState at each steady
// state (run.go).

// Record says that a field of one kind records an object another kind's
// reconciler created, by UID (or by name): for example a Database's
// status.statefulSetUID. In a steady state a non-empty record must name a
// live object (InvariantRecordLive).
type Record struct {
	// Of is the recording kind, e.g. &v1alpha1.Database{}.
	Of client.Object
	// Field is the dotted path of the field, e.g. "status.statefulSetUID".
	Field string
	// Kind is the recorded object's kind, e.g. &appsv1.StatefulSet{}; it
	// is looked up in the recording object's namespace.
	Kind client.Object
	// ByName: the field holds the object's name, not its UID.
	ByName bool
}

// checks are the invariants judged on a schedule's book (judge.Checks).
type checks = judge.Checks

// checkSteadyState runs the onSteady checks on r's steady state, whose
// steady round began at step index first.
func (r *run) checkSteadyState(ctx context.Context, first int) {
	r.checks.CheckSteady(ctx, judge.Steady{
		Steps: r.trace.judged(), First: first, Fresh: r.freshReader,
		Faulted:  r.cache.Stale > 0 || r.trace.crashes > 0 || r.held.in.Delivered > 0,
		Disabled: r.trace.disabled, User: r.ex.setup.s.Invariant, Records: r.ex.setup.records,
		OGKinds: r.ex.setup.ogKinds, ForKinds: r.ex.setup.forKinds,
	})
}

// validateDisable reads Options.Disable against the table.
func (st *setupState) validateDisable(opts Options) error {
	var err error
	st.disabled, err = judge.Disabled(opts.Disable)
	return err
}

// judgeTrace is the run's trace as judge.Checks reads it and records
// what broke in it.
type judgeTrace struct {
	ex *explorer
	t  *trace
}

func (j judgeTrace) Fail(invariant string, f judge.Failure) { j.t.failWith(invariant, f) }
func (j judgeTrace) Retract(invariant, msg string)          { j.t.retract(invariant, msg) }
func (j judgeTrace) TimeOnly(invariant, msg, note string)   { j.t.timeOnly(invariant, msg, note, false) }
func (j judgeTrace) OrderOnly(invariant, msg, note string)  { j.t.timeOnly(invariant, msg, note, true) }
func (j judgeTrace) Restored(invariant, msg string, r judge.Restoration) {
	j.t.restored(invariant, msg, r)
}
func (j judgeTrace) WriteNote() string { return j.t.writeNote() }

// Acting is the step being run as judge.Checks reads it; nil outside a
// step.
func (j judgeTrace) Acting() *judge.Acting {
	s := j.t.cur
	if s == nil {
		return nil
	}
	if s.made == nil {
		s.made = map[book.Key]int{}
	}
	a := &judge.Acting{Step: s.step.Index, Reconciler: s.step.Reconciler, Object: s.step.Object, Action: s.action, Drain: s.step.Drain,
		Crashes: j.t.crashes, Pos: judge.ChosenPos(j.t.chosen), Seen: s.seen, Made: s.made,
		Judged: s.judged, Based: s.based, SentBy: s.sentBy, SentNth: s.sentNth, Applying: s.applying,
		ForKind: j.stepForKind, Request: j.t.request, Stale: j.t.staleNote, Note: j.t.lastWriteNote}
	if s.applying {
		for _, rd := range s.step.Reads {
			a.Reads = append(a.Reads, judge.Read{Object: rd.Object, Version: rd.Version, Missing: rd.Missing})
		}
	}
	return a
}

// stepForKind is the For kind of the running step's reconciler ("" for
// an action or an in-flight write's delivery).
func (j judgeTrace) stepForKind() string {
	for i, rc := range j.ex.setup.s.Reconcilers {
		if rc.Name == j.t.cur.step.Reconciler && i < len(j.ex.setup.forKinds) {
			return j.ex.setup.forKinds[i].String()
		}
	}
	return ""
}
