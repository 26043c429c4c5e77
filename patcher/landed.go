package patcher

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"reflect"

	jsonpatch "github.com/evanphx/json-patch/v5"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// A status write whose response is lost may have been stored. client-go
// makes that common: on a 5xx or 429 with Retry-After it sends the same
// request again on its own, and when the first one was stored the second
// gets a 409, which looks exactly like another writer's. Taking it for one
// makes Retry run the decision again on a state that already holds it.
//
// So after a write was sent and failed in a way that does not rule out that
// it was stored (a 409, a 429, a 5xx, a transport error), the object is
// read again and the write settled:
//
//   - landed: the object moved past the base and already holds the status
//     this write would produce from it (applying the write to the fresh
//     object changes no status field). The write was stored, or another
//     writer stored the same values; either way what was decided is on the
//     server. Flush succeeds and the object becomes the fresh read.
//   - not yet: the object is still at the base's resourceVersion. The write
//     was not stored, but a request still on its way may be. The same body
//     is sent again: both carry the base's resourceVersion, so at most one
//     of them can be stored. (A 409 with the object at the base comes from
//     a reader that lags: a Conflict, sent nothing.)
//   - overtaken: another write came after the base and the object does not
//     hold this write's status (or the object was deleted and made again).
//     After a 409 the object's history decides (history.go): this write
//     was the first after the base (landed, then overwritten before
//     client-go's resend: landed), another writer's was (a Conflict: the
//     usual case), or the history cannot be read (ErrWriteOutcomeUnknown).
//     After any other error the write may have landed and been overwritten
//     since: ErrWriteOutcomeUnknown.

// ErrWriteOutcomeUnknown matches (errors.Is) the error Flush and Retry
// return when a status write was sent, its response was lost, and whether
// the server stored it cannot be told: the context ended first, the object
// could not be read back, another writer overwrote the status since, or,
// after a 409, the object's history (which tells whether the first write
// after the base was this one) could not be read.
// The write was stored once or not at all. Do not run the same decision
// again on this patcher: fetch the object again and decide from what the
// server holds.
var ErrWriteOutcomeUnknown = errors.New("status write outcome unknown")

// WriteOutcomeUnknownError is the error matching ErrWriteOutcomeUnknown. It
// unwraps to the error of the write (or of the read after it), except a
// Conflict: it must not satisfy apierrors.IsConflict, which makes callers
// write again.
type WriteOutcomeUnknownError struct {
	// Object identifies the object: "Kind namespace/name".
	Object string
	// Why says what kept the outcome from being known.
	Why string
	// Cause is the error the write got.
	Cause error
}

func (e *WriteOutcomeUnknownError) Error() string {
	return fmt.Sprintf("statuspatch: %s: %v: %s (the write got: %v); it was stored once or not at all. "+
		"Fetch the object again and decide from what the server holds", e.Object, ErrWriteOutcomeUnknown, e.Why, e.Cause)
}

// Unwrap returns ErrWriteOutcomeUnknown and the cause, unless it is a
// Conflict.
func (e *WriteOutcomeUnknownError) Unwrap() []error {
	if e.Cause == nil || apierrors.IsConflict(e.Cause) {
		return []error{ErrWriteOutcomeUnknown}
	}
	return []error{ErrWriteOutcomeUnknown, e.Cause}
}

// sentWrite is a status write that was sent and failed: what it was based
// on and what it carried.
type sentWrite[T client.Object] struct {
	base      T
	patchType types.PatchType
	body      []byte
	cur       []byte           // the status as JSON, or nil (for applied)
	applied   map[string]any   // an apply's status (apply.go)
	unowned   []fieldpath.Path // removed fields no manager owned: left out of the apply
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

// writeFailed handles a status write that got err: settled at once, or,
// for a Conflict inside Retry, after Retry's backoff (p.deferSettle).
func (p *Patcher[T]) writeFailed(ctx context.Context, w *sentWrite[T], err error) (flushResult, error) {
	wrapped := fmt.Errorf("statuspatch: patch status of %s: %w", p.id(), withCause(ctx, err))
	if schemaRefused(err) {
		wrapped = fmt.Errorf("statuspatch: patch status of %s: the installed CRD's status schema lacks a field of the apply, and server-side apply "+
			"refuses the whole apply for it; nothing was stored. Install the CRD that matches the Go type, or write with a merge-mode patcher "+
			"(WithMergePatch), whose unknown fields the server prunes: %w", p.id(), err)
	}
	if !mayHaveLanded(err) {
		return resultOf(err), wrapped
	}
	if p.deferSettle && apierrors.IsConflict(err) {
		p.sent = w
		return resultConflict, wrapped
	}
	return p.settle(ctx, w, wrapped)
}

// settleVerdict is what a fresh read says about a sent write.
type settleVerdict int

const (
	verdictLanded settleVerdict = iota
	verdictNotYet
	verdictOvertaken
)

// verdict compares the fresh read with the write w.
func (p *Patcher[T]) verdict(w *sentWrite[T], fresh T) settleVerdict {
	baseRV, freshRV := w.base.GetResourceVersion(), fresh.GetResourceVersion()
	if fresh.GetUID() != w.base.GetUID() {
		return verdictOvertaken
	}
	if cmp, err := compareResourceVersions(freshRV, baseRV); (err == nil && cmp <= 0) || (err != nil && freshRV == baseRV) {
		return verdictNotYet
	}
	if p.holdsWrite(w, fresh) {
		return verdictLanded
	}
	return verdictOvertaken
}

// holdsWrite reports whether fresh already holds the status w would
// produce: w's body applied to fresh (at the base's resourceVersion, as
// the lock requires) changes no status field.
func (p *Patcher[T]) holdsWrite(w *sentWrite[T], fresh T) bool {
	if w.patchType == types.ApplyPatchType {
		return p.holdsApply(w, fresh)
	}
	doc, err := json.Marshal(fresh)
	if err != nil {
		return false
	}
	// Numbers decoded exactly (json.Number): as float64, 2^53 and 2^53+1
	// are equal, and another writer's value would pass for this write's.
	before, err := decodeObject(doc)
	if err != nil {
		return false
	}
	if m, ok := before["metadata"].(map[string]any); ok {
		m["resourceVersion"] = w.base.GetResourceVersion()
	}
	if doc, err = json.Marshal(before); err != nil {
		return false
	}
	var after []byte
	switch w.patchType {
	case types.MergePatchType:
		after, err = jsonpatch.MergePatch(doc, w.body)
	case types.JSONPatchType:
		var patch jsonpatch.Patch
		if patch, err = jsonpatch.DecodePatch(w.body); err == nil {
			after, err = patch.Apply(doc)
		}
	default:
		return false
	}
	if err != nil {
		return false
	}
	got, err := decodeObject(after)
	if err != nil {
		return false
	}
	return reflect.DeepEqual(before["status"], got["status"])
}

// settle finds out whether the write w, which got err (wrapped), was
// stored, sending it again while the object is still at the base.
func (p *Patcher[T]) settle(ctx context.Context, w *sentWrite[T], err error) (flushResult, error) {
	for range maxSettles {
		if ctx.Err() != nil {
			return resultError, &WriteOutcomeUnknownError{Object: p.id(), Why: "the context ended before the object could be read back", Cause: withCause(ctx, err)}
		}
		fresh, rerr := p.read(ctx)
		if rerr != nil {
			if apierrors.IsNotFound(rerr) {
				return resultError, rerr
			}
			return resultError, &WriteOutcomeUnknownError{Object: p.id(), Why: fmt.Sprintf("the object could not be read back: %v", rerr), Cause: err}
		}
		switch p.verdict(w, fresh) {
		case verdictLanded:
			p.landedAs(fresh)
			return resultApplied, nil
		case verdictOvertaken:
			if apierrors.IsConflict(err) {
				// The usual Conflict, or this write stored and
				// overwritten before client-go's resend: the history
				// tells (history.go).
				landed, herr := p.overtakenAfterConflict(ctx, w, fresh, err)
				switch {
				case herr != nil:
					return resultError, herr
				case landed:
					p.landedAs(fresh)
					return resultApplied, nil
				}
				return resultConflict, err
			}
			return p.overtakenAfterLostResponse(ctx, w, fresh, err)
		}
		// Not yet stored: a Conflict then comes from a lagging read; any
		// other error, send the same body again (at most one is stored).
		if apierrors.IsConflict(err) {
			return resultConflict, err
		}
		scratch := p.newObject()
		serr := p.client.Status().Patch(ctx, scratch, client.RawPatch(w.patchType, w.body), p.writeOptions(w.patchType)...)
		if serr == nil {
			return p.afterWrite(ctx, scratch, w)
		}
		//nolint:errorlint // the first attempt's error is context only: the resend's error decides what the caller sees
		err = fmt.Errorf("statuspatch: patch status of %s (sent again after %v): %w", p.id(), err, withCause(ctx, serr))
		if !mayHaveLanded(serr) {
			return resultOf(serr), err
		}
	}
	return resultError, &WriteOutcomeUnknownError{Object: p.id(), Why: fmt.Sprintf("still unsettled after %d reads", maxSettles), Cause: err}
}

// landedAs takes fresh, a read that holds the settled write, as the
// object and the base. The write is done: a status given to ApplyStatus
// is no longer pending, as after a write whose response came back.
func (p *Patcher[T]) landedAs(fresh T) {
	p.replaceObject(fresh)
	p.setBase(p.obj)
	p.fresh = freshness{}
	p.pending = nil
}

// settleAfterConflict is Retry's settle of a write that got a Conflict
// (conflict), after its backoff: one read, which either shows the write
// stored (the object becomes it: true) or becomes the object and base for
// the next attempt. An object that moved past the base without holding the
// write needs its history (history.go); when that cannot be read the
// error matches ErrWriteOutcomeUnknown and the object and base are left.
func (p *Patcher[T]) settleAfterConflict(ctx context.Context, conflict error) (bool, error) {
	w := p.sent
	p.sent = nil
	fresh, err := p.readChecked(ctx)
	if err != nil {
		return false, err
	}
	landed := false
	switch p.verdict(w, fresh) {
	case verdictLanded:
		landed = true
	case verdictOvertaken:
		if landed, err = p.overtakenAfterConflict(ctx, w, fresh, conflict); err != nil {
			return false, err
		}
	}
	p.replaceObject(fresh)
	p.setBase(p.obj)
	return landed, nil
}
