package patcher

import (
	"context"
	"fmt"
	"reflect"
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/statuspatch/statuspatch/patcher/internal/guard"
)

// WithOwnedConditions names the condition types this writer owns in the
// status's conditions list (a []metav1.Condition field whose JSON name is
// "conditions"). Owned conditions are this writer's to decide: when Flush
// conflicts and the only status changes since the base are to owned
// conditions, Flush re-reads the object (through the API reader), applies
// exactly those changes (set, changed or removed conditions of owned types)
// to the fresh conditions list, and writes again: still one patch under
// the lock, and another writer's conditions, and every other field, stay as
// that writer left them. It tries at most as many times as the backoff's
// Steps, waiting the backoff in between.
//
// Use it when several controllers each own some conditions of one object.
// Use Retry instead when the change depends on the rest of the status (a
// phase, a plan, another writer's condition): a conflict with any change
// outside owned conditions is returned as it is.
//
// A status type without such a field, or an empty type name, makes the
// Patcher report ErrInvalidInput.
func WithOwnedConditions(types ...string) Option {
	return optionFunc(func(o *options) { o.ownedConditions = append(o.ownedConditions, types...) })
}

// checkOwnedConditions is the construction-time check of WithOwnedConditions.
func (p *Patcher[T]) checkOwnedConditions() error {
	if len(p.opts.ownedConditions) == 0 {
		return nil
	}
	if slices.Contains(p.opts.ownedConditions, "") {
		return fmt.Errorf("statuspatch: %s: WithOwnedConditions with an empty condition type: %w", p.id(), ErrInvalidInput)
	}
	if _, ok := guard.ConditionsIndex(reflect.TypeOf(p.status(p.obj))); !ok {
		return fmt.Errorf("statuspatch: %s: WithOwnedConditions, but the status has no []metav1.Condition field named \"conditions\": %w", p.id(), ErrInvalidInput)
	}
	return nil
}

// flushOwned handles a Conflict of Flush under WithOwnedConditions: while
// the only changes are to owned conditions, re-read, re-apply them, write
// again. It returns the first conflict unchanged when the changes are not
// all owned.
func (p *Patcher[T]) flushOwned(ctx context.Context, conflict error) (flushResult, error) {
	backoff := p.opts.backoff
	attempts := max(backoff.Steps, 1)
	err := conflict
	for attempt := 1; attempt <= attempts; attempt++ {
		if attempt > 1 {
			if serr := sleep(ctx, backoff.Step()); serr != nil {
				return resultError, fmt.Errorf("statuspatch: %s: re-apply owned conditions: %w", p.id(), serr)
			}
		}
		ok, rerr := p.reapplyOwnedConditions(ctx)
		if rerr != nil {
			return resultOf(rerr), rerr
		}
		if !ok {
			return resultConflict, err
		}
		var result flushResult
		if result, err = p.flush(ctx); err == nil || !apierrors.IsConflict(err) {
			return result, err
		}
	}
	// The writes tried: the first, which conflicted, and one per re-apply.
	return resultConflict, &RetryExhaustedError{Object: p.id(), Attempts: attempts + 1, Reason: fmt.Sprintf("owned conditions re-applied %d times", attempts), Last: err}
}

// reapplyOwnedConditions moves the owned condition changes onto a fresh
// read, when they are the only status changes. ok is false, with nothing
// read, when they are not.
func (p *Patcher[T]) reapplyOwnedConditions(ctx context.Context) (ok bool, err error) {
	fields, err := p.changedStatusFields()
	if err != nil || !slices.Equal(fields, []string{"status.conditions"}) {
		return false, err
	}
	// The conditions lists' addresses; nil for a nil status pointer.
	cur, base := guard.ConditionsOf(p.status(p.obj)), guard.ConditionsOf(p.status(p.base))
	if cur == nil || base == nil {
		return false, nil
	}
	changed, ok := guard.OwnedChanges(p.opts.ownedConditions, *base, *cur)
	if !ok {
		return false, nil
	}
	fresh, err := p.read(ctx)
	if err != nil {
		return false, err
	}
	list := guard.ConditionsOf(p.status(fresh))
	if list == nil {
		return false, nil // the fresh status is a nil pointer: nothing to merge into
	}
	p.setBase(fresh)
	guard.Reapply(list, *cur, changed)
	p.replaceObject(fresh)
	return true, nil
}
