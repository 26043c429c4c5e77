package patcher

import (
	"context"
	"encoding/json"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/statuspatch/statuspatch/patcher/internal/apply"
)

// The apply of WriteApplyWithoutLock (docs/apply.md). An apply must hold
// every field its manager owns, or the server removes it; without the lock
// the base may be stale, and a patcher of the same field owner may have
// stored a decision since (a locked one, say). So the apply is not built
// from the base: the object is read again just before, and the apply holds
// what the decision changed since the base, laid over the values the
// server holds now. The fields this manager owns and the decision did not
// change go in with the server's values, never the stale base's.
//
// The apply carries the fresh read's resourceVersion: the lock is on that
// read, not on the base, so a write landing between the read and the apply
// is a 409, never overwritten. The decision is not validated against its
// base (what the mode gives up) and is not made again: the object is read
// again and the same decision rebased onto it, at most maxWindowWrites
// times. Carrying a resourceVersion, each apply is settled like a locked
// write, with the fresh read as its base (landed.go, history.go).

// maxWindowWrites bounds the applies of one Flush without the lock: each
// one after the first follows a write that landed in the window.
const maxWindowWrites = 5

// flushUnlocked sends the decision rebased onto a fresh read, and again
// onto a new read while another write lands in the window. A 409 is
// settled here, at once (it may answer client-go's resend of a stored
// apply): only one settled as not stored leads to the next read.
func (p *Patcher[T]) flushUnlocked(ctx context.Context) (flushResult, error) {
	defer func(deferred bool) { p.deferSettle = deferred }(p.deferSettle)
	p.deferSettle = false
	var last error
	for range maxWindowWrites {
		w, err := p.unlockedApplyWrite(ctx)
		if err != nil {
			return resultOf(err), err
		}
		result, err := p.send(ctx, w)
		if !apierrors.IsConflict(err) {
			return result, err
		}
		last = err
	}
	return resultConflict, fmt.Errorf("statuspatch: %s: the apply without the lock was rebased onto a fresh read and sent %d times, "+
		"and each time another write landed between the read and the apply; nothing of it was stored: %w", p.id(), maxWindowWrites, last)
}

// unlockedApply reports whether body is an apply that carries no
// resourceVersion (ApplyStatus without the lock): it may be stored at any
// time, so the history cannot settle it.
func unlockedApply(body []byte) bool {
	var doc struct {
		Metadata struct {
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
	}
	return json.Unmarshal(body, &doc) == nil && doc.Metadata.ResourceVersion == ""
}

// unlockedApplyWrite is applyWrite without the lock: the decision (cur
// against the base) rebased onto a fresh read, locked at that read.
func (p *Patcher[T]) unlockedApplyWrite(ctx context.Context) (*sentWrite[T], error) {
	fresh, err := p.read(ctx)
	if err != nil {
		return nil, err
	}
	if len(fresh.GetManagedFields()) == 0 {
		fresh.SetManagedFields(p.base.GetManagedFields())
	}
	own, err := p.ownersIn(fresh)
	if err != nil {
		return nil, err
	}
	cur, err := json.Marshal(p.status(p.obj))
	if err != nil {
		return nil, fmt.Errorf("statuspatch: %s: marshal status: %w", p.id(), err)
	}
	base, err := p.baseStatus()
	if err != nil {
		return nil, err
	}
	now, err := json.Marshal(p.status(fresh))
	if err != nil {
		return nil, fmt.Errorf("statuspatch: %s: marshal status as read again: %w", p.id(), err)
	}
	b := &apply.Fields{Own: own, Keys: p.applyKeys, SetLists: apply.SetLists(fresh.GetManagedFields())}
	freshStatus := decodeStatus(now)
	rebased, _ := b.Rebase(decodeStatus(cur), decodeStatus(base), freshStatus).(map[string]any)
	if rebased == nil {
		rebased = map[string]any{}
	}
	return p.buildApply(b, rebased, freshStatus, fresh)
}
