package patcher

import (
	"github.com/statuspatch/statuspatch/patcher/internal/guard"
)

// nonStatusChanges lists the fields, as JSON paths, where the object differs
// from ref outside status: the writes a status patch would drop
// (guard.NonStatusChanges).
func (p *snapshot[T]) nonStatusChanges(ref T) []string {
	return guard.NonStatusChanges(p.obj, ref, p.status(p.obj))
}
