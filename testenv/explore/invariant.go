package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

	"context"
	"fmt"

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

// The built-in invariants, as one table: each is an invariant value in a
// file of its own (invariant_*.go) with its checks, named in builtins in
// the order docs/explore.md's "What is checked" lists them (a test keeps
// the two in step). Options.Disable reads the table; checks.checkWrite runs the
// onWrite checks at each new version the book records (internal/book), in
// this order, and the drain the onSteady checks at each steady state
// (run.go). Checks made elsewhere say where.
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

// checks are the invariants judged on the book's versions: at each new
// version (invariant.go's onWrite) and in a steady state, for the step
// being run (trace.cur); and what they keep to judge after the schedule.
type checks struct {
	book   *book.Book
	server client.Client
	trace  *trace
	// ogSuspects are the observedGenerations absent at generation 1 in a
	// steady state, judged after the schedule (invariant_observedgenerationstuck.go).
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
