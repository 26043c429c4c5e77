package patcher

import (
	"context"
	"fmt"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher/internal/settle"
)

// writer is how Flush writes the status: the write mode (WithWriteMode) as
// one value, chosen at construction (newWriter). Merge mode's merger
// (writer_merge.go) sends a JSON merge patch; WriteApply's lockedApply
// (writer_apply.go) and WriteApplyWithoutLock's unlockedApply
// (writer_apply_unlocked.go) a server-side apply, sharing apply mode's
// state (applier). Whatever depends on the mode asks the writer.
type writer[T client.Object] interface {
	// write is the write of the status in memory, cur (JSON, or nil).
	write(ctx context.Context, cur []byte) (*sentWrite[T], error)
	// stored takes the response of w's successful write, scratch, into
	// the object and the base.
	stored(ctx context.Context, scratch T, w *sentWrite[T]) (flushResult, error)
	// locked reports whether its writes carry the base's
	// resourceVersion: only then is a write stored at most once, as the
	// first write after the base, and a newer version seen here a reason
	// to refuse it.
	locked() bool
	// options are the options its writes are sent with.
	options() []client.SubResourcePatchOption
	// settleWrite is its write w as patcher/internal/settle sees it
	// (settlewrite.go).
	settleWrite(w *sentWrite[T]) (settle.Write, error)
}

// newWriter is p's writer for its write mode, checked at construction.
func newWriter[T client.Object](p *Patcher[T]) (writer[T], error) {
	switch p.opts.mode {
	case WriteMergePatch:
		return merger[T]{p}, nil
	case WriteApply, WriteApplyWithoutLock:
	default:
		return nil, fmt.Errorf("statuspatch: %s: WithWriteMode(%v): give WriteMergePatch, WriteApply or WriteApplyWithoutLock: %w", p.id(), p.opts.mode, ErrInvalidInput)
	}
	a, err := newApplier(p)
	if err != nil {
		return nil, err
	}
	if p.opts.mode == WriteApply {
		return lockedApply[T]{a}, nil
	}
	return unlockedApply[T]{a}, nil
}
