package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/judge"

	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"
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

// The built-in invariants, as one table: each is an invariant value
// below (the own-delete ones with the state they keep,
// invariant_owndelete.go), its judge in internal/judge (a file of its
// own there), named in builtins in the order docs/explore.md's "What is
// checked" lists them (a test keeps the two in step). Options.Disable
// reads the table; checks.checkWrite runs the onWrite checks at each new
// version the book records (internal/book), in this order, and the drain
// the onSteady checks at each steady state (run.go), each recording the
// judge's Failure under the invariant's name. Checks made elsewhere say
// where.
type invariant struct {
	// name is Violation.Invariant, and the name Options.Disable takes.
	name string
	// required: Options.Disable cannot turn it off.
	required bool
	// onWrite, if set, checks h's newest version, which replaced prev
	// (nil: a create).
	onWrite func(c *checks, h *book.History, prev map[string]any)
	// onSteady, if set, checks r in a steady state whose round of fresh
	// reads, which wrote nothing, began at step index first.
	onSteady func(ctx context.Context, r *run, first int)
}

// builtins are the built-in invariants.
var builtins = []invariant{
	invLostWrite, invObservedGeneration, invObservedGenerationStuck, invConverges,
	invOwnDelete, invDeletedStaysDeleted, invErrorLoop, invStuckFinalizer, invRecordLive,
	invUserInvariant, invNoPanic,
}

// invConverges: the drain reaches a steady state (drainToSteady, run.go,
// checks it: a round that ends where an earlier one ended, or no steady
// state within the drain's bound).
var invConverges = invariant{name: InvariantConverges}

// invUserInvariant: Scenario.Invariant holds in every steady state.
var invUserInvariant = invariant{
	name:     InvariantUser,
	required: true,
	onSteady: func(ctx context.Context, r *run, _ int) {
		if r.ex.setup.s.Invariant == nil {
			return
		}
		if err := r.ex.setup.s.Invariant(ctx, r.freshReader()); err != nil {
			r.trace.fail(InvariantUser, err.Error())
		}
	},
}

// invNoPanic: no reconcile or action panics (run.step recovers and fails it).
var invNoPanic = invariant{name: InvariantNoPanic, required: true}

// invLostWrite: a write changes a field an earlier step set, and the write
// was computed from a version older than the one that write made
// (writebase.go; judge.LostWrite; judged again after the schedule,
// lostjudge.go).
var invLostWrite = invariant{
	name:    InvariantLostWrite,
	onWrite: (*checks).checkLostWrite,
}

// invObservedGeneration: at each write, status.observedGeneration never goes
// backwards nor passes metadata.generation (judge.ObservedGeneration).
var invObservedGeneration = invariant{
	name: InvariantObservedGeneration,
	onWrite: func(c *checks, h *book.History, prev map[string]any) {
		for _, f := range judge.ObservedGeneration(h, prev) {
			f.Message += c.trace.writeNote()
			c.trace.failWith(InvariantObservedGeneration, f)
		}
	},
}

// invObservedGenerationStuck: in a steady state, status.observedGeneration
// is below metadata.generation, or absent at generation 1 where the same
// schedule with fresh reads and no crash sets it (judged after the
// schedule, ownjudge.go; judge.ObservedGenerationStuck).
var invObservedGenerationStuck = invariant{
	name: InvariantObservedGenerationStuck,
	onSteady: func(_ context.Context, r *run, _ int) {
		r.checks.checkObservedGenerationStuck(r.ex.setup.ogKinds, r.cache.Stale > 0 || r.trace.crashes > 0 || r.held.in.Delivered > 0)
	},
}

// ogSuspect is an observedGeneration absent at generation 1 in a steady
// state, judged after the schedule: the object, and the violation's
// message.
type ogSuspect struct {
	key book.Key
	msg string
}

// checkObservedGenerationStuck records judge.ObservedGenerationStuck's
// verdict, and keeps an absence at generation 1 to judge after the
// schedule. faulted: the schedule had a stale read, a crash or a write
// delivered late.
func (c *checks) checkObservedGenerationStuck(ogKinds map[schema.GroupVersionKind]bool, faulted bool) {
	f, suspect, broke := judge.ObservedGenerationStuck(c.book, ogKinds, faulted, !c.trace.disabled[InvariantObservedGenerationStuck])
	if !broke {
		return
	}
	if suspect != nil {
		c.ogSuspects = append(c.ogSuspects, ogSuspect{key: *suspect, msg: f.Message})
	}
	c.trace.failWith(InvariantObservedGenerationStuck, f)
}

// invErrorLoop: a reconcile returns an error in the steady round (fresh
// reads, nothing written): it is retried forever (judge.ErrorLoop).
var invErrorLoop = invariant{
	name: InvariantErrorLoop,
	onSteady: func(_ context.Context, r *run, first int) {
		if f, ok := judge.ErrorLoop(r.trace.judged()[first:]); ok {
			r.trace.failWith(InvariantErrorLoop, f)
		}
	},
}

// invStuckFinalizer: in a steady state an object being deleted keeps a
// finalizer a reconciler of this schedule added, and nothing will remove
// it (judge.StuckFinalizer).
var invStuckFinalizer = invariant{
	name:     InvariantStuckFinalizer,
	onSteady: func(_ context.Context, r *run, first int) { r.checks.checkFinalizers(first, r.ex.setup.forKinds) },
}

// checkFinalizers records judge.StuckFinalizer's verdict on the steady
// round from step index first; forKinds are the reconcilers' For kinds.
func (c *checks) checkFinalizers(first int, forKinds []schema.GroupVersionKind) {
	if f, ok := judge.StuckFinalizer(c.book, c.trace.judged(), first, forKinds); ok {
		c.trace.failWith(InvariantStuckFinalizer, f)
	}
}

// invRecordLive: in a steady state a Scenario.Records field names no live
// object, as a fresh reader Lists the server (judge.RecordLive).
var invRecordLive = invariant{
	name: InvariantRecordLive,
	onSteady: func(ctx context.Context, r *run, _ int) {
		if f, ok := judge.RecordLive(ctx, r.book, r.ex.setup.records, r.freshReader()); ok {
			r.trace.failWith(InvariantRecordLive, f)
		}
	},
}

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

// checks are the invariants judged on the book's versions: at each new
// version (invariant.go's onWrite) and in a steady state, for the step
// being run (trace.cur); and what they keep to judge after the schedule.
type checks struct {
	book   *book.Book
	server client.Client
	trace  *trace
	// ogSuspects are the observedGenerations absent at generation 1 in a
	// steady state, judged after the schedule (ownjudge.go).
	ogSuspects []ogSuspect
	// lwSuspects are the lost writes judged after the schedule; written
	// what each chosen step's write made, for the judgement that takes
	// this schedule as the fresh one (lostjudge.go).
	lwSuspects []suspectWrite
	written    map[writeAt]map[string]any
}

// checkWrite runs the onWrite checks on h's newest version, which
// replaced prev.
func (c *checks) checkWrite(h *book.History, prev map[string]any) {
	for _, inv := range builtins {
		if inv.onWrite != nil {
			inv.onWrite(c, h, prev)
		}
	}
}

// checkSteadyState runs the onSteady checks on r's steady state, whose
// steady round began at step index first.
func (r *run) checkSteadyState(ctx context.Context, first int) {
	for _, inv := range builtins {
		if inv.onSteady != nil {
			inv.onSteady(ctx, r, first)
		}
	}
}

// disableable are the names Options.Disable may give.
func disableable() []string {
	var out []string
	for _, inv := range builtins {
		if !inv.required {
			out = append(out, inv.name)
		}
	}
	return out
}

// validateDisable reads Options.Disable against the table.
func (st *setupState) validateDisable(opts Options) error {
	st.disabled = map[string]bool{}
	for _, name := range opts.Disable {
		found := false
		for _, inv := range builtins {
			if inv.name != name {
				continue
			}
			if inv.required {
				return fmt.Errorf("explore: Options.Disable: %q cannot be turned off", name)
			}
			found = true
		}
		if !found {
			return fmt.Errorf("explore: Options.Disable: %q is not a built-in invariant (one of %q)", name, disableable())
		}
		st.disabled[name] = true
	}
	return nil
}
