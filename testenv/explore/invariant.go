package explore

import (
	"context"
	"fmt"
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
// the two in step). Options.Disable reads the table; the book of
// versions runs the onWrite checks at each new version (versions.go), in
// this order, and the drain the onSteady checks at each steady state
// (run.go). Checks made elsewhere say where.
type invariant struct {
	// name is Violation.Invariant, and the name Options.Disable takes.
	name string
	// required: Options.Disable cannot turn it off.
	required bool
	// onWrite, if set, checks h's newest version, which replaced prev
	// (nil: a create).
	onWrite func(b *versions, h *history, prev map[string]any)
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
			r.fail(InvariantUser, err.Error())
		}
	},
}

// invNoPanic: no reconcile or action panics (run.step recovers and fails it).
var invNoPanic = invariant{name: InvariantNoPanic, required: true}

// checkWrite runs the onWrite checks on h's newest version, which
// replaced prev.
func (b *versions) checkWrite(h *history, prev map[string]any) {
	for _, inv := range builtins {
		if inv.onWrite != nil {
			inv.onWrite(b, h, prev)
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
