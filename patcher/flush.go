package patcher

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/statuspatch/statuspatch/patcher/internal/guard"
	"github.com/statuspatch/statuspatch/patcher/internal/wire"
)

// Flush writes the status difference since the base as one JSON merge patch
// to the status subresource, carrying the base's resourceVersion. It sends
// nothing, ever, when the status did not change. On success the object holds
// the server's response and becomes the new base. On a Conflict
// (apierrors.IsConflict) the object, including its status, is left as it
// was. When it would write and the caller also changed something outside
// status in memory, it returns ErrNonStatusChange and sends nothing
// (WithNonStatusChangesUnsent leaves those changes unsent instead).
//
// When the write's response is lost (a 5xx, a reset, a timeout, or the 409
// of client-go's own second send), the object is read back: a write that
// was stored is a success; one still not stored is sent again; one whose
// outcome cannot be told is ErrWriteOutcomeUnknown, never a Conflict. On an
// object that moved past the base without holding the write, the object's
// history (WithWatcher) tells a write stored and overwritten since (a
// success) from one another writer's write came before (a Conflict).
func (p *Patcher[T]) Flush(ctx context.Context) error {
	if err := p.Err(); err != nil {
		return err
	}
	start := time.Now()
	result, err := p.flush(ctx)
	if err != nil && len(p.opts.ownedConditions) > 0 && apierrors.IsConflict(err) {
		result, err = p.flushOwned(ctx, err)
	}
	p.metrics.observeFlush(p.kind, result, time.Since(start))
	return err
}

func (p *Patcher[T]) flush(ctx context.Context) (flushResult, error) {
	p.settler.sent = nil
	if p.gone {
		return resultError, p.notFound("the last finalizer was removed from the deleting object")
	}
	if pa := p.pending; pa != nil {
		if pa.err != nil {
			p.pending = nil
			return resultError, pa.err
		}
		return pa.applier.flushPending(ctx)
	}
	// The no-op check comes first: nothing to write means no request at all,
	// not even the re-read of syncBase.
	changed, cur, err := p.statusChange()
	if err != nil {
		return resultError, err
	}
	if !changed {
		p.noopFlushed()
		return resultNoop, nil
	}
	if err := p.beforeWrite(ctx); err != nil {
		return resultOf(err), err
	}
	// The condition guard names what the server's schema for
	// metav1.Condition refuses, but the server decides: a CRD without that
	// schema (an older or handwritten one) or a test's fake client stores
	// the status, as Status().Update did (docs/patcher.md, "Invalid
	// conditions"). Its findings explain the server's 422.
	problems := guard.InvalidConditions(p.status(p.obj), p.status(p.base))
	token, undo, err := p.token.stamp(p.obj)
	if err != nil {
		return resultError, err
	}
	if undo != nil {
		// The token is a change of its own: the write is made again with
		// it. On any end but a stored write the object is left as it was.
		if _, cur, err = p.statusChange(); err != nil {
			undo()
			return resultError, err
		}
	}
	res, err := p.sendWrite(ctx, cur, token)
	if undo != nil && res != resultApplied {
		undo()
	}
	if named := refusedOf(problems, err); len(named) > 0 {
		err = &InvalidConditionError{Object: p.id(), Problems: named, Server: err}
	}
	return res, err
}

// refusedOf is the guard's problems whose path the server's 422 names
// among its causes: a 422 for another field (a phase outside its enum)
// is the server's alone, its condition stored by a CRD without the
// condition schema.
func refusedOf(problems []string, err error) []string {
	var st apierrors.APIStatus
	if len(problems) == 0 || !apierrors.IsInvalid(err) || !errors.As(err, &st) || st.Status().Details == nil {
		return nil
	}
	named := map[string]bool{}
	for _, c := range st.Status().Details.Causes {
		named[c.Field] = true
	}
	var out []string
	for _, pr := range problems {
		if path, _, _ := strings.Cut(pr, ": "); named[path] {
			out = append(out, pr)
		}
	}
	return out
}

// sendWrite makes the write of the status in memory, cur, carrying token,
// and sends it.
func (p *Patcher[T]) sendWrite(ctx context.Context, cur []byte, token string) (flushResult, error) {
	w, err := p.writer.write(ctx, cur)
	if err != nil {
		return resultOf(err), err
	}
	w.token = token
	return p.send(ctx, w)
}

// beforeWrite are the checks of a write that is going to be sent.
func (p *Patcher[T]) beforeWrite(ctx context.Context) error {
	if err := p.tracker.staleError(); err != nil {
		return err
	}
	if err := ctxError(ctx); err != nil {
		return fmt.Errorf("statuspatch: patch status of %s: %w", p.id(), err)
	}
	// Only a write can drop changes, so only a write pays for the check.
	// It comes before the re-base: a re-base Conflict makes Retry replace
	// the object, and an unsaved change would go with it.
	unsent := p.opts.nonStatusUnsent
	if err := p.syncBase(ctx, !unsent); err != nil {
		return err
	}
	if unsent {
		return nil
	}
	if fields := p.nonStatusChanges(p.base); len(fields) > 0 {
		return &NonStatusChangeError{Object: p.id(), Fields: fields}
	}
	return nil
}

// send sends the status write w and takes its outcome.
func (p *Patcher[T]) send(ctx context.Context, w *sentWrite[T]) (flushResult, error) {
	// One write per object at a time through this client, and none that
	// the version book already knows would conflict.
	release, err := p.tracker.claim(ctx)
	if err != nil {
		return resultOf(err), err
	}
	defer release()
	// The response goes into a scratch object: on failure the caller's
	// object, status included, is left exactly as it was.
	scratch := p.newObject()
	sctx, count := countSends(ctx)
	if err := p.client.Status().Patch(sctx, scratch, client.RawPatch(w.patchType, w.body), p.writer.options()...); err != nil {
		if apierrors.IsConflict(err) {
			log.FromContext(ctx).V(1).Info("status write conflicted; the object changed since it was read",
				"kind", p.kind, "object", client.ObjectKeyFromObject(p.obj), "resourceVersion", p.base.GetResourceVersion())
		}
		return p.settler.writeFailed(ctx, w, err, count.sends())
	}
	p.settler.tokenAnswered(ctx, scratch, w.token)
	return p.writer.stored(ctx, scratch, w)
}

// syncBase handles a write the caller made on the same object behind the
// patcher's back (r.Update or r.Patch adding a label, say): the object's
// resourceVersion no longer matches the base. The object is re-read (through
// the API reader when one is set). The read becomes the base only when it is
// exactly the state the caller's write produced (the same resourceVersion as
// the object) and its status still equals the base's: then the status
// difference is unchanged and the lock is taken at the current
// resourceVersion. Any other read is a Conflict: a newer one means another
// writer came after the caller's write, an older one is a lagging cache,
// and a different status means another writer wrote status. A stale cached
// read is never taken for the server's state. Without an API reader, a read
// older than the object (a cache that has not yet seen the caller's own
// write) is first read again through the client for a short bounded wait
// (cacheCatchUp, cachewait.go); the decision is made on the last read.
//
// For a write (unsaved), before the re-base, which may be a Conflict, it
// returns ErrNonStatusChange when the object holds a change outside status
// that the caller's own write did not persist (unsaved.go).
func (p *Patcher[T]) syncBase(ctx context.Context, unsaved bool) error {
	if p.obj.GetResourceVersion() == p.base.GetResourceVersion() {
		return nil
	}
	fresh, err := p.readOwnWrite(ctx)
	if err != nil {
		return err
	}
	if unsaved {
		if fields := p.unsavedAfterOwnWrite(ctx, fresh); len(fields) > 0 {
			return &NonStatusChangeError{Object: p.id(), Fields: fields}
		}
	}
	return p.syncBaseTo(fresh)
}

// readOwnWrite reads the object after a write the caller made on it
// behind the patcher's back: through the API reader, or through the
// client, waiting a bounded time for a cache behind that write
// (awaitCache).
func (p *Patcher[T]) readOwnWrite(ctx context.Context) (T, error) {
	fresh, err := p.read(ctx)
	if err != nil || p.opts.apiReader != nil {
		return fresh, err
	}
	return awaitCache(ctx, p.id(), p.obj.GetResourceVersion(), fresh, p.read)
}

// syncBaseTo is syncBase's decision on the fresh read.
func (p *Patcher[T]) syncBaseTo(fresh T) error {
	objRV := p.obj.GetResourceVersion()
	if freshRV := fresh.GetResourceVersion(); freshRV != objRV {
		why := fmt.Sprintf("the object was written again (resourceVersion %s) after the write that gave it resourceVersion %s", freshRV, objRV)
		if cmp, err := wire.CompareResourceVersions(freshRV, objRV); err == nil && cmp < 0 {
			why = fmt.Sprintf("the re-read returned resourceVersion %s, older than the object's %s: a lagging cache (pass WithAPIReader(mgr.GetAPIReader()))", freshRV, objRV)
		}
		return p.conflict(why)
	}
	base, err := p.baseStatus()
	if err != nil {
		return err
	}
	freshStatus, err := p.statusJSON(fresh)
	if err != nil {
		return err
	}
	if !bytes.Equal(base, freshStatus) {
		return p.conflict(fmt.Sprintf("another writer changed the status since the patcher's base (resourceVersion %s)", p.base.GetResourceVersion()))
	}
	p.base = fresh
	p.baseStatusJSON = freshStatus
	return nil
}
