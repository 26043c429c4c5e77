package patcher

import "fmt"

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

// Deprecated: use WithWriteMode (WriteApply, WriteApplyWithoutLock,
// WriteMergePatch); these remain for one release.
var (
	WithApply            = func() Option { return WithWriteMode(WriteApply) }
	WithApplyWithoutLock = func() Option { return WithWriteMode(WriteApplyWithoutLock) }
	WithMergePatch       = func() Option { return WithWriteMode(WriteMergePatch) }
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

// modeApplyUnlocked is WriteApplyWithoutLock under the name history.go
// (the settling helper's file) uses; drop it when that file says
// WriteApplyWithoutLock.
const modeApplyUnlocked = WriteApplyWithoutLock
