package patcher

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/statuspatch/statuspatch/patcher/internal/apply"
)

// What an apply stored (docs/apply.md): after a successful apply the
// response is compared with the apply, field by field, for divergences,
// and after a lost response a fresh read is compared with it to tell
// whether it landed (landed.go). Only the fields of the apply are
// compared: the others are other managers' or defaults.

// stored takes a successful apply's response (writer.go).
func (a *applier[T]) stored(ctx context.Context, scratch T, w *sentWrite[T]) (flushResult, error) {
	p := a.p
	p.pending = nil
	p.tracker.wrote(scratch)
	p.replaceObject(scratch)
	p.setBase(p.obj)
	stored, err := json.Marshal(p.status(p.obj))
	if err != nil {
		return resultApplied, fmt.Errorf("statuspatch: %s: marshal status: %w", p.id(), err)
	}
	ds := divergences(apply.Stored(w.applied, decodeStatus(stored), w.unowned, a.keys, apply.SetLists(p.obj.GetManagedFields())))
	if len(ds) == 0 {
		return resultApplied, nil
	}
	return resultApplied, p.reportDivergence(ctx, ds)
}
