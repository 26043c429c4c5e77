package patcher

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// Retry runs mutate on the object and flushes. On a Conflict it re-reads the
// object through the API reader, makes the fresh object the new base, runs
// mutate again on the fresh state and flushes again, sleeping a jittered,
// growing backoff in between (DefaultBackoff unless WithBackoff was given).
//
// mutate must decide from the object it is given, not from state captured
// before: on a retry it sees what the other writer wrote. For the same
// reason Retry refuses, before running mutate or sending anything, when the
// status already differs from the base in memory (changes made before Retry
// would be dropped by the re-read on a conflict): the error matches
// ErrPendingChanges and names the fields. Make those changes inside mutate,
// or Flush them first.
//
// When mutate returns an error or panics, the object is restored to its
// state before that attempt, so nothing half-done can be flushed later; the
// error is returned unchanged and the panic is re-raised. Whatever ends a
// Retry with an error, the object is left as it was before the attempt
// that failed: the last state read, with no status change pending, so the
// next Retry runs. The one exception is ErrStatusDiverged
// (WithDivergenceError): that write was stored, so the object and the base
// are what the server stored. Every Retry observes statuspatch_retry_attempts once,
// with the attempts begun (0 when it refused before running mutate). When every attempt
// conflicted, or the time budget (WithRetryTimeout) ran out, the error
// matches ErrRetryExhausted and apierrors.IsConflict. When ctx is done Retry
// stops with an error matching ctx.Err() and its cause. When a write may
// have been stored and that cannot be told (ErrWriteOutcomeUnknown), Retry
// returns that error at once and does not run mutate again: the decision
// may already be on the server. Fetch the object again and decide from it.
func (p *Patcher[T]) Retry(ctx context.Context, mutate func(T) error) error {
	if err := p.Err(); err != nil {
		return err
	}
	attempts := 0 // the attempts begun: mutate ran, then Flush
	defer func() { p.metrics.observeAttempts(p.kind, attempts) }()
	if mutate == nil {
		return fmt.Errorf("statuspatch: %s: Retry with a nil mutate function: %w", p.id(), ErrInvalidInput)
	}
	if err := ctxError(ctx); err != nil {
		return fmt.Errorf("statuspatch: %s: Retry: %w", p.id(), err)
	}
	if p.gone {
		return p.notFound("the last finalizer was removed from the deleting object")
	}
	if p.pending != nil {
		return &PendingChangesError{Object: p.id(), Fields: []string{"the status given to ApplyStatus"}}
	}
	// An ApplyStatus made in one attempt is that attempt's: never sent by
	// a later one, nor by a Flush after Retry.
	defer func() { p.pending = nil }()
	fields, err := p.changedStatusFields()
	if err != nil {
		return err
	}
	if len(fields) > 0 && p.obj.GetResourceVersion() != p.base.GetResourceVersion() {
		// The caller wrote the object itself and the status it got back may
		// differ from the base: the server's status, when it is that of the
		// version the caller's write made (retryBase), else a Conflict, not
		// pending changes.
		answered, err := p.retryBase(ctx)
		if err != nil {
			return err
		}
		if answered {
			fields = nil
		}
	}
	if len(fields) > 0 {
		return &PendingChangesError{Object: p.id(), Fields: fields}
	}
	if err := p.tracker.startRetry(ctx); err != nil {
		return err
	}
	backoff := p.opts.backoff
	maxAttempts := max(backoff.Steps, 1)
	start := time.Now()
	for {
		attempts++
		before := p.obj.DeepCopyObject().(T)
		p.pending = nil
		if err := p.runMutate(mutate, before); err != nil {
			return err
		}
		p.settler.deferSettle = len(p.opts.ownedConditions) == 0
		err := p.Flush(ctx)
		p.settler.deferSettle = false
		if err == nil {
			return nil
		}
		// A failed Retry leaves the object as it was before the attempt
		// that failed: the last state read, nothing pending, so the next
		// Retry runs (docs/patcher.md, "State after a failed call").
		if !apierrors.IsConflict(err) {
			// A write stored but diverged (WithDivergenceError) landed:
			// the object and the base are what the server stored, and
			// nothing of it is rolled back.
			if !errors.Is(err, ErrStatusDiverged) {
				p.replaceObject(before)
			}
			return err
		}
		wait := backoff.Step()
		exhausted := ""
		if attempts >= maxAttempts {
			exhausted, wait = fmt.Sprintf("at most %d attempts", maxAttempts), 0
		} else if t := p.opts.retryTimeout; t > 0 && time.Since(start)+wait > t {
			exhausted, wait = fmt.Sprintf("retry timeout %s", t), 0
		}
		if exhausted == "" {
			log.FromContext(ctx).V(1).Info("retrying status write on fresh state", "kind", p.kind, "attempt", attempts)
		}
		if serr := sleep(ctx, wait); serr != nil {
			p.replaceObject(before)
			if p.settler.sent != nil {
				// A 409 not yet settled: client-go's own resend of a
				// stored write gets one too (landed.go).
				p.settler.sent = nil
				return &WriteOutcomeUnknownError{Object: p.id(),
					Why: fmt.Sprintf("the context ended before the write's 409 could be settled (retry after %d attempts: %v)", attempts, serr), Cause: serr}
			}
			return fmt.Errorf("statuspatch: %s: retry after %d attempts: %w", p.id(), attempts, serr)
		}
		// The re-read: it also tells whether a write that got the
		// Conflict was stored after all (landed.go); then it is done.
		landed, rerr := p.reread(ctx, err)
		switch {
		case rerr != nil:
			p.replaceObject(before)
			return rerr
		case landed:
			return nil
		case exhausted != "":
			return &RetryExhaustedError{Object: p.id(), Attempts: attempts, Reason: exhausted, Last: err}
		}
	}
}

// reread is Retry's read after a Conflict (conflict): it settles a sent
// write when there is one, and makes the fresh read the object and the
// base.
func (p *Patcher[T]) reread(ctx context.Context, conflict error) (landed bool, err error) {
	if p.settler.sent != nil {
		return p.settler.settleAfterConflict(ctx, conflict)
	}
	return false, p.refresh(ctx)
}

// runMutate runs mutate on the object. When mutate fails or panics it puts
// the object back as it was before (before, a copy taken then), so its
// half-done changes can't be flushed later, then returns the error or
// re-panics.
func (p *Patcher[T]) runMutate(mutate func(T) error, before T) (err error) {
	panicked := true
	defer func() {
		if panicked {
			p.replaceObject(before)
		}
	}()
	err = mutate(p.obj)
	panicked = false
	if err != nil {
		p.replaceObject(before)
	}
	return err
}

// refresh replaces the object, in place so the caller's pointer stays valid,
// with a fresh read through the API reader, and makes it the base.
func (p *Patcher[T]) refresh(ctx context.Context) error {
	fresh, err := p.tracker.readChecked(ctx)
	if err != nil {
		return err
	}
	p.replaceObject(fresh)
	p.setBase(p.obj)
	return nil
}

// retryBase handles, for Retry, a write the caller made on the object
// behind the patcher's back (its resourceVersion is past the base) whose
// answer brought a status other than the base's: another writer stored
// the status before the caller's write (a merge patch of its finalizers
// or labels, which no resourceVersion locks). When a read shows the
// object at the resourceVersion of the caller's write with the very
// status the object holds, nothing in the status is the caller's: it is
// the server's state, and mutate, which decides from the object it is
// given, decides from it. That read becomes the base (answered), and the
// write is locked on it. Otherwise it is syncBase's decision on the read:
// a Conflict, or the base moved when the server's status is still the
// base's (then the object's differing status is a pending change).
func (p *Patcher[T]) retryBase(ctx context.Context) (answered bool, err error) {
	fresh, err := p.readOwnWrite(ctx)
	if err != nil {
		return false, err
	}
	if fresh.GetResourceVersion() == p.obj.GetResourceVersion() {
		held, err := p.statusJSON(p.obj)
		if err != nil {
			return false, err
		}
		stored, err := p.statusJSON(fresh)
		if err != nil {
			return false, err
		}
		if bytes.Equal(held, stored) {
			p.base, p.baseStatusJSON = fresh, stored
			return true, nil
		}
	}
	return false, p.syncBaseTo(fresh)
}
