package patcher

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/statuspatch/statuspatch/patcher/internal/settle"
)

// A status write whose response is lost may have been stored. client-go
// makes that common: on a 5xx or 429 with Retry-After it sends the same
// request again on its own, and when the first one was stored the second
// gets a 409, which looks exactly like another writer's. Taking it for one
// makes Retry run the decision again on a state that already holds it.
//
// A request that went on the wire once and got an answer is settled by
// that answer (sends.go): a 409 to it is a Conflict, with no read. So only
// after a write was sent and failed in a way that does not rule out that
// it was stored (a 409 to a request sent more than once or whose sends
// cannot be counted, a 429, a 5xx but a size refusal, a transport error),
// the object is read again (readServer) and the write settled by the
// protocol of patcher/internal/settle (its package documentation): by
// the lock, the object's history (history.go) and managedFields, with
// values only to corroborate. A read at the base after any error but a 409 means not yet
// stored: the same body is sent again (both carry the base's
// resourceVersion, so at most one is stored); after a 409 it means a
// reader that lags, and is read again, unless the read was the status
// subresource's, which no cache serves: then the 409 did not come from
// the server, and the write is not stored. The outcomes map to Flush's
// results: Landed is a success, Conflict a Conflict, Unknown
// ErrWriteOutcomeUnknown.

// settler settles a status write whose answer did not say whether it was
// stored: it reads the object again, asks internal/settle, the object's
// history (history.go) and the server's schema (schema.go) and manager
// name (ownmanager.go), and takes the outcome into the Patcher.
type settler[T client.Object] struct {
	p           *Patcher[T]
	deferSettle bool          // Retry settles a Conflict itself, after its backoff
	sent        *sentWrite[T] // the write whose Conflict Retry has still to settle
}

// sentWrite is a status write that was sent and failed: what it was based
// on and what it carried.
type sentWrite[T client.Object] struct {
	base      T
	patchType types.PatchType
	body      []byte
	cur       []byte           // the status as JSON, or nil (for applied)
	applied   map[string]any   // an apply's status (writer_apply.go)
	unowned   []fieldpath.Path // removed fields no manager owned: left out of the apply
	token     string           // the write token it carries (WithWriteToken), or ""
	// settleToken is the token as settling sees it, with what the
	// server has shown of it (tokenFor), set before each decision.
	settleToken *settle.Token
}

// maxSettles bounds the reads (and the sends of the same body again) of
// one settle.
const maxSettles = 3

// mayHaveLanded reports whether a write that got err may still have been
// stored: not a refusal the server answered with, except 409 (client-go
// may have sent it again after a stored first attempt), 429 and 5xx.
func mayHaveLanded(err error) bool {
	if schemaRefused(err) {
		return false
	}
	var status apierrors.APIStatus
	if errors.As(err, &status) {
		code := status.Status().Code
		return code == 409 || code == 429 || code >= 500
	}
	var urlErr *url.Error
	var netErr net.Error
	return errors.As(err, &urlErr) || errors.As(err, &netErr) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// resendRefused reports whether err, a 422, may be the server's answer to
// client-go's own resend of a stored JSON Patch: a remove of a member the
// first send removed is refused as invalid, before the lock is checked.
func resendRefused[T client.Object](w *sentWrite[T], err error) bool {
	return w.patchType == types.JSONPatchType && apierrors.IsInvalid(err) && bytes.Contains(w.body, []byte(`"op":"remove"`))
}

// writeFailed handles a status write that got err after sends sends on
// the wire (0: not seen, sends.go): a definite answer to a request sent
// once is taken as it is; else the write is settled at once, or, for a
// Conflict inside Retry, after Retry's backoff (deferSettle).
func (st *settler[T]) writeFailed(ctx context.Context, w *sentWrite[T], err error, sends int) (flushResult, error) {
	p := st.p
	wrapped := fmt.Errorf("statuspatch: patch status of %s: %w", p.id(), withCause(ctx, err))
	switch {
	case st.refusedAsTooLarge(w, err, sends):
		return resultError, st.tooLargeError(w, err)
	case apierrors.IsNotFound(err):
		if nerr := st.noStatusSubresource(ctx, w, err); nerr != nil {
			return resultError, nerr
		}
	case apierrors.IsConflict(err) && sends == 1 && !p.opts.resendingPath:
		// The server's answer to the only send: this write was refused
		// (unless an intermediary may have sent it again).
		return resultConflict, wrapped
	}
	if schemaRefused(err) {
		wrapped = fmt.Errorf("statuspatch: patch status of %s: the installed CRD's status schema lacks a field of the apply, and server-side apply "+
			"refuses the whole apply for it; nothing was stored. Install the CRD that matches the Go type, or write with a merge-mode patcher "+
			"(WithWriteMode(WriteMergePatch)), whose unknown fields the server prunes: %w", p.id(), err)
	}
	if !mayHaveLanded(err) && !resendRefused(w, err) {
		return resultOf(err), wrapped
	}
	if st.deferSettle && apierrors.IsConflict(err) {
		st.sent = w
		return resultConflict, wrapped
	}
	return st.settle(ctx, w, wrapped)
}

// settle finds out whether the write w, which got err (wrapped), was
// stored, sending it again while the object is still at the base
// (settle.Run, over flushAttempt).
func (st *settler[T]) settle(ctx context.Context, w *sentWrite[T], err error) (flushResult, error) {
	p := st.p
	a := &flushAttempt[T]{p: p, w: w, err: err, res: resultError}
	end, d, serr := settle.Run(ctx, a, apierrors.IsConflict(err), maxSettles)
	switch end {
	case settle.Decided:
		return st.outcome(w, a.fresh, d, a.err)
	case settle.HeldBase:
		// The server itself holds the base: the write, which carries it,
		// was not stored and cannot be.
		return resultConflict, a.err
	case settle.Stopped:
		return a.res, serr
	}
	err = a.err
	if apierrors.IsConflict(err) && p.opts.watcher == nil && p.opts.apiReader != nil {
		// No watcher, and the API reader's reads all stayed at the base
		// after a 409: the server's own answer decides (serverRead).
		fresh, ok := st.serverRead(ctx)
		if !ok {
			return resultConflict, err // the status subresource cannot be read: documented (docs/patcher.md)
		}
		d, notYet, derr := st.decide(ctx, w, fresh, err)
		switch {
		case derr != nil:
			return resultError, derr
		case notYet:
			return resultConflict, err // the server itself holds the base
		}
		return st.outcome(w, fresh, d, err)
	}
	return resultError, st.unsettled(err)
}

// serverRead reads the object through the status subresource (GET
// .../status, which no cache serves) once the API reader's reads all
// stayed at the base after a 409: an API reader that lags (a cache given
// as one) would otherwise make a stored write, whose resend got the 409, a
// Conflict. ok is false when the client cannot read the subresource (a
// fake client, a refusal).
func (st *settler[T]) serverRead(ctx context.Context) (fresh T, ok bool) {
	fresh, err := st.p.readStatus(ctx)
	return fresh, err == nil
}

// unsettled is the error of a write still unsettled after maxSettles reads.
func (st *settler[T]) unsettled(err error) error {
	p := st.p
	why := fmt.Sprintf("still unsettled after %d reads", maxSettles)
	if apierrors.IsConflict(err) {
		why = fmt.Sprintf("the write got a 409, which proves the object moved past the base, but %d reads through %s still returned the base "+
			"(a reader that lags, such as a cache)", maxSettles, readerName(p.opts.apiReader))
	}
	return &WriteOutcomeUnknownError{Object: p.id(), Why: why, Cause: err}
}

// outcome maps a settle decision on w, which got err, to Flush's result:
// Landed a success (the object becomes fresh), Conflict the 409 itself or
// a Conflict naming the evidence, Unknown ErrWriteOutcomeUnknown.
func (st *settler[T]) outcome(w *sentWrite[T], fresh T, d settle.Decision, err error) (flushResult, error) {
	p := st.p
	switch d.Outcome {
	case settle.Landed:
		st.landedAs(fresh)
		return resultApplied, nil
	case settle.Conflict:
		if apierrors.IsConflict(err) {
			return resultConflict, err
		}
		return resultConflict, p.conflict(fmt.Sprintf("the write's response was lost (%v) and it was not stored, nor can it be (it carries resourceVersion %s): %s",
			err, w.base.GetResourceVersion(), d.Why))
	}
	return resultError, &WriteOutcomeUnknownError{Object: p.id(),
		Why: fmt.Sprintf("the object moved past the base (resourceVersion %s, now %s): %s", w.base.GetResourceVersion(), fresh.GetResourceVersion(), d.Why), Cause: err}
}

// landedAs takes fresh, a read that holds the settled write, as the
// object and the base. The write is done: a status given to ApplyStatus
// is no longer pending, as after a write whose response came back.
func (st *settler[T]) landedAs(fresh T) {
	p := st.p
	p.replaceObject(fresh)
	p.setBase(p.obj)
	p.tracker.fresh = freshness{}
	p.pending = nil
}

// settleAfterConflict is Retry's settle of a write that got a Conflict
// (conflict), after its backoff: it either shows the write stored (the
// object becomes the read: true) or makes the read the object and base for
// the next attempt. When the evidence cannot tell, the error matches
// ErrWriteOutcomeUnknown and the object and base are left.
func (st *settler[T]) settleAfterConflict(ctx context.Context, conflict error) (bool, error) {
	p := st.p
	w := st.sent
	st.sent = nil
	a := &retryAttempt[T]{p: p, w: w, conflict: conflict}
	end, d, err := settle.Run(ctx, a, true, maxSettles)
	switch end {
	case settle.Stopped:
		return false, err
	case settle.HeldBase:
		// The server itself holds the base: the write was not stored;
		// the read is the next attempt's base.
		p.replaceObject(a.fresh)
		p.setBase(p.obj)
		return false, nil
	case settle.Decided:
		if d.Outcome == settle.Unknown {
			_, err := st.outcome(w, a.fresh, d, conflict)
			return false, err
		}
		p.replaceObject(a.fresh)
		p.setBase(p.obj)
		return d.Outcome == settle.Landed, nil
	}
	fresh := a.fresh
	if p.opts.watcher == nil && p.opts.apiReader != nil {
		// No watcher, and the API reader's reads all stayed at the base:
		// the server's own answer decides (serverRead); without it the
		// 409 stays a Conflict (documented).
		if server, ok := st.serverRead(ctx); ok {
			d, notYet, err := st.decide(ctx, w, server, conflict)
			switch {
			case err != nil:
				return false, err
			case !notYet && d.Outcome == settle.Unknown:
				_, err := st.outcome(w, server, d, conflict)
				return false, err
			}
			fresh = server
			p.replaceObject(fresh)
			p.setBase(p.obj)
			return !notYet && d.Outcome == settle.Landed, nil
		}
		p.replaceObject(fresh)
		p.setBase(p.obj)
		return false, nil
	}
	return false, st.unsettled(conflict)
}

// settleReadChecked is readServer with readChecked's check.
func (st *settler[T]) settleReadChecked(ctx context.Context) (T, bool, error) {
	p := st.p
	seq := records.Sequence()
	fresh, uncached, err := p.readServer(ctx)
	if err != nil {
		return fresh, uncached, err
	}
	return fresh, uncached, p.tracker.checkedRead(fresh, seq)
}
