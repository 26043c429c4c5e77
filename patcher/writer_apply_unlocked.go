package patcher

import (
	"context"
	"encoding/json"
	"fmt"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher/internal/apply"
)

// The apply of WriteApplyWithoutLock (docs/apply.md). An apply must hold
// every field its manager owns, or the server removes it; without the lock
// the base may be stale, and a patcher of the same field owner may have
// stored a decision since (a locked one, say). So the apply is not built
// from the base: the object is read again just before, and the apply holds
// what the decision changed since the base, laid over the values the
// server holds now. The fields this manager owns and the decision did not
// change go in with the server's values, never the stale base's. So the
// read is the server's (readServer): through the API reader, else the
// status subresource, never a cache that may lag; only a client that
// cannot read the status subresource (a fake client, a refusal) is read
// through its Get.

// unlockedApply is WriteApplyWithoutLock's writer (writer.go): the apply
// carries no resourceVersion, and no write token (a token proves a write
// stored once only with the lock, and a resend that put it back after
// another writer's would be a write of its own).
type unlockedApply[T client.Object] struct{ *applier[T] }

func (unlockedApply[T]) locked() bool { return false }

// write is the decision (the status in memory against the base) rebased
// onto a read of the server; cur is not used.
func (a unlockedApply[T]) write(ctx context.Context, _ []byte) (*sentWrite[T], error) {
	p := a.p
	fresh, _, err := p.readServer(ctx)
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
