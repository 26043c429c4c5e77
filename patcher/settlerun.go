package patcher

import (
	"context"
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher/internal/settle"
)

// flushAttempt is Flush's settle of the write w (settle.Run drives it): it
// reads through readServer and sends w again while the object is at the
// base.
type flushAttempt[T client.Object] struct {
	p     *Patcher[T]
	w     *sentWrite[T]
	err   error       // the write's error (wrapped), then the last resend's
	fresh T           // the last read
	res   flushResult // Flush's result when the settle stopped
}

func (a *flushAttempt[T]) Read(ctx context.Context) (bool, error) {
	p := a.p
	if ctx.Err() != nil {
		return false, &WriteOutcomeUnknownError{Object: p.id(), Why: "the context ended before the object could be read back", Cause: withCause(ctx, a.err)}
	}
	fresh, uncached, rerr := p.readServer(ctx)
	if rerr != nil {
		if apierrors.IsNotFound(rerr) {
			return false, rerr
		}
		return false, &WriteOutcomeUnknownError{Object: p.id(), Why: fmt.Sprintf("the object could not be read back: %v", rerr), Cause: a.err}
	}
	a.fresh = fresh
	return uncached, nil
}

func (a *flushAttempt[T]) Decide(ctx context.Context) (settle.Decision, bool, error) {
	return a.p.settler.decide(ctx, a.w, a.fresh, a.err)
}

func (a *flushAttempt[T]) Resend(ctx context.Context) (again, conflict bool, err error) {
	p, w := a.p, a.w
	if resendRefused(w, a.err) {
		a.res = resultOf(a.err)
		return false, false, a.err // the object is at the base: the 422 is this write's own
	}
	// Not yet stored: send the same body again (at most one is stored).
	scratch := p.newObject()
	serr := p.client.Status().Patch(ctx, scratch, client.RawPatch(w.patchType, w.body), p.writer.options()...)
	if serr == nil {
		p.settler.tokenAnswered(ctx, scratch, w.token)
		a.res, err = p.writer.stored(ctx, scratch, w)
		return false, false, err
	}
	//nolint:errorlint // the first attempt's error is context only: the resend's error decides what the caller sees
	a.err = fmt.Errorf("statuspatch: patch status of %s (sent again after %v): %w", p.id(), a.err, withCause(ctx, serr))
	if tooLarge(serr) && p.settler.locked(w) {
		// Refused for its size: the resend carries the lock, so a stored
		// earlier send would have made it a 409 before the size was
		// checked. Nothing was stored; sending it again cannot help.
		a.res = resultError
		return false, false, p.settler.tooLargeError(w, a.err)
	}
	if !mayHaveLanded(serr) {
		a.res = resultOf(serr)
		return false, false, a.err
	}
	return true, apierrors.IsConflict(a.err), nil
}

// retryAttempt is Retry's settle of a write that got a Conflict, after
// its backoff (settle.Run drives it): it reads through readServerChecked
// and never sends again.
type retryAttempt[T client.Object] struct {
	p        *Patcher[T]
	w        *sentWrite[T]
	conflict error // the write's Conflict
	fresh    T     // the last read
}

func (a *retryAttempt[T]) Read(ctx context.Context) (bool, error) {
	fresh, uncached, err := a.p.settler.settleReadChecked(ctx)
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return false, &WriteOutcomeUnknownError{Object: a.p.id(), Why: "the context ended before the object could be read back", Cause: err}
		case errors.Is(err, ErrStaleCache):
			// The reader lags behind this process's own earlier write,
			// so its read cannot show whether this write was stored, and
			// a StaleCacheError would say nothing was sent. The status
			// subresource, never served from a cache, can.
			server, ok := a.p.settler.serverRead(ctx)
			if !ok {
				return false, &WriteOutcomeUnknownError{Object: a.p.id(),
					Why: fmt.Sprintf("the object read back is older than this process's own last write to it (%v), and the status subresource could not be read", err), Cause: a.conflict}
			}
			a.fresh = server
			return true, nil
		case apierrors.IsNotFound(err):
			return false, err
		}
		// The write may be stored (its resend got the 409): a read error
		// is no Conflict, nor an error to decide again after.
		return false, &WriteOutcomeUnknownError{Object: a.p.id(), Why: fmt.Sprintf("the object could not be read back: %v", err), Cause: a.conflict}
	}
	a.fresh = fresh
	return uncached, nil
}

func (a *retryAttempt[T]) Decide(ctx context.Context) (settle.Decision, bool, error) {
	return a.p.settler.decide(ctx, a.w, a.fresh, a.conflict)
}

// Resend is never called: settle.Run does not send again after a 409.
func (a *retryAttempt[T]) Resend(context.Context) (again, conflict bool, err error) {
	return false, true, a.conflict
}
