package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/judge"

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
// table (validateDisable); a run's book calls Checks.CheckWrite at each
// new version it records, and its drain CheckSteady at each steady state
// (internal/run).

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

// validateDisable reads Options.Disable against the table.
func (st *setupState) validateDisable(opts Options) error {
	var err error
	st.forRun.Disabled, err = judge.Disabled(opts.Disable)
	return err
}
