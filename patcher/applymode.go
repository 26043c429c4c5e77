package patcher

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher/internal/apply"
)

// WriteMode is how Flush writes the status (WithWriteMode).
type WriteMode int

// The write modes (docs/apply.md).
const (
	// WriteMergePatch writes a JSON merge patch carrying the base's
	// resourceVersion: the default.
	WriteMergePatch WriteMode = iota
	// WriteApply writes a server-side apply under the field owner
	// (WithFieldOwner, required) with forced ownership, carrying the base's
	// resourceVersion: a write after the base is a 409, which Retry runs
	// again on fresh state. The apply holds what the decision changed since
	// the base and the status fields this manager owns by Apply; other
	// managers' fields are never in it. Lists are atomic unless keyed
	// (WithListMapKeys; every []metav1.Condition is keyed by "type") or a
	// +listType=set, whose values are owned one by one.
	WriteApply
	// WriteApplyWithoutLock is WriteApply without the resourceVersion: the
	// decision is stored whatever was written since the base. It gives up
	// the lock: use it only for fields whose values do not depend on what
	// was read (a reported version, a heartbeat). The fields this manager
	// owns and the decision did not change are sent with the values the
	// server holds, read just before the apply, never the stale base's.
	WriteApplyWithoutLock
)

// WithWriteMode sets how Flush writes the status; the last one given wins
// (a manager's defaults, then the patcher's). Default: WriteMergePatch.
func WithWriteMode(m WriteMode) Option {
	return optionFunc(func(o *options) { o.mode = m })
}

// The mode options before WithWriteMode, kept for one release as one
// block (go doc lists it once).
var (
	// WithApply is WithWriteMode(WriteApply).
	//
	// Deprecated: use WithWriteMode(WriteApply).
	WithApply = func() Option { return WithWriteMode(WriteApply) }
	// WithApplyWithoutLock is WithWriteMode(WriteApplyWithoutLock).
	//
	// Deprecated: use WithWriteMode(WriteApplyWithoutLock).
	WithApplyWithoutLock = func() Option { return WithWriteMode(WriteApplyWithoutLock) }
	// WithMergePatch is WithWriteMode(WriteMergePatch).
	//
	// Deprecated: use WithWriteMode(WriteMergePatch).
	WithMergePatch = func() Option { return WithWriteMode(WriteMergePatch) }
)

func (m WriteMode) String() string {
	switch m {
	case WriteMergePatch:
		return "WriteMergePatch"
	case WriteApply:
		return "WriteApply"
	case WriteApplyWithoutLock:
		return "WriteApplyWithoutLock"
	}
	return fmt.Sprintf("WriteMode(%d)", int(m))
}

// WithListMapKeys tells apply mode that the status list at path (dotted
// JSON names from the object, list levels not marked: "status.members",
// "status.members.conditions") is a +listType=map list with these
// +listMapKey fields: its items are owned one by one and the apply holds
// only changed and owned items. Every []metav1.Condition is keyed by
// "type" without it. Any other list is applied whole. Merge mode ignores
// it.
func WithListMapKeys(path string, keys ...string) Option {
	return optionFunc(func(o *options) {
		if o.listMapKeys == nil {
			o.listMapKeys = map[string][]string{}
		}
		o.listMapKeys[path] = slices.Clone(keys)
	})
}

// checkListMapKeys is the construction-time check of WithListMapKeys.
func (p *Patcher[T]) checkListMapKeys() error {
	for path, keys := range p.opts.listMapKeys {
		if path != "status" && !strings.HasPrefix(path, "status.") || strings.Contains(path, "..") || strings.HasSuffix(path, ".") {
			return fmt.Errorf("statuspatch: %s: WithListMapKeys(%q): the path must be dotted JSON names from the object, such as \"status.conditions\": %w", p.id(), path, ErrInvalidInput)
		}
		if len(keys) == 0 || slices.Contains(keys, "") {
			return fmt.Errorf("statuspatch: %s: WithListMapKeys(%q, %q): give the list's +listMapKey fields, none empty: %w", p.id(), path, keys, ErrInvalidInput)
		}
	}
	return nil
}

// newApplier is apply mode's state for p (newWriter), checked at
// construction.
func newApplier[T client.Object](p *Patcher[T]) (*applier[T], error) {
	if p.opts.fieldOwner == "" {
		return nil, fmt.Errorf("statuspatch: %s: apply mode needs a field manager: add WithFieldOwner(\"your-controller\") "+
			"(to the manager's defaults, ForManager, or this patcher): %w", p.id(), ErrInvalidInput)
	}
	conds := map[string][]string{}
	apply.ConditionLists(reflect.TypeOf(p.status(p.obj)), "status", conds)
	a := &applier[T]{p: p, keys: maps.Clone(conds), conditionPaths: map[string]bool{}}
	maps.Copy(a.keys, p.opts.listMapKeys)
	for path := range conds {
		a.conditionPaths[path] = slices.Equal(a.keys[path], []string{"type"})
	}
	return a, nil
}
