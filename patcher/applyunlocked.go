package patcher

import (
	"context"
	"encoding/json"
	"fmt"

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

// unlockedWrite is write without the lock: the decision (the status in
// memory against the base) rebased onto a fresh read.
func (a *applier[T]) unlockedWrite(ctx context.Context) (*sentWrite[T], error) {
	p := a.p
	fresh, err := p.read(ctx)
	if err != nil {
		return nil, err
	}
	if len(fresh.GetManagedFields()) == 0 {
		fresh.SetManagedFields(p.base.GetManagedFields())
	}
	own, err := a.ownersIn(fresh)
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
	b := &apply.Fields{Own: own, Keys: a.keys, SetLists: apply.SetLists(fresh.GetManagedFields())}
	freshStatus := decodeStatus(now)
	rebased, _ := b.Rebase(decodeStatus(cur), decodeStatus(base), freshStatus).(map[string]any)
	if rebased == nil {
		rebased = map[string]any{}
	}
	return a.build(b, rebased, freshStatus)
}
