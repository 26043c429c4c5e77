package patcher

import (
	"context"

	"k8s.io/apimachinery/pkg/types"

	"github.com/statuspatch/statuspatch/patcher/internal/book"
)

// Fresh reports whether the object may be acted on, before any expensive
// work. It is nil unless the object was read from a stale cache: read by
// Fetch after this process's own write to it had completed, and older than
// that write. Then, with an API reader (WithAPIReader, ForManager) and no
// status change in memory, it reads the object fresh, in place, makes that
// the base and returns nil: decide from p.Object() after it. Otherwise it
// returns a StaleCacheError (ErrStaleCache). A read that raced with this
// process's write (it began before the write completed) is not stale: a
// write from it conflicts, as with any concurrent writer.
func (p *Patcher[T]) Fresh(ctx context.Context) error {
	if err := p.Err(); err != nil {
		return err
	}
	if p.tracker.fresh.state != book.Stale {
		return nil
	}
	if p.opts.apiReader != nil && !p.HasChanges() {
		return p.tracker.rebaseFresh(ctx)
	}
	return p.tracker.staleError()
}

// checkRead compares the object with the record of own writes; readSeq is the
// records' sequence number taken before the read began, when known is true.
func (tr *tracker[T]) checkRead(readSeq uint64, known bool) {
	p := tr.p
	tr.fresh = freshnessOf(recordOf(p.client, p.obj, false), p.obj.GetUID(), p.obj.GetResourceVersion(), readSeq, known)
}

// fetched is called by Fetch on the Patcher it made from a read that began
// at readSeq: with an API reader, a stale object is read again through it,
// so the caller decides from fresh state.
func (tr *tracker[T]) fetched(ctx context.Context, readSeq uint64) error {
	p := tr.p
	tr.checkRead(readSeq, true)
	if tr.fresh.state != book.Stale || p.opts.apiReader == nil {
		return nil
	}
	return tr.rebaseFresh(ctx)
}

// rebaseFresh replaces the object, in place, with a read through the API
// reader, and makes it the base.
func (tr *tracker[T]) rebaseFresh(ctx context.Context) error {
	p := tr.p
	seq := records.Sequence()
	fresh, err := p.read(ctx)
	if err != nil {
		return err
	}
	p.replaceObject(fresh)
	p.setBase(p.obj)
	tr.checkRead(seq, true)
	return tr.staleError()
}

// staleError is the StaleCacheError of a Patcher made from a stale read,
// or nil.
func (tr *tracker[T]) staleError() error {
	p := tr.p
	if tr.fresh.state != book.Stale {
		return nil
	}
	return &StaleCacheError{Object: p.id(), Read: tr.fresh.read, Written: tr.fresh.written, RequeueAfter: StaleCacheRequeue}
}

// readChecked is read, refusing an object older than this process's last
// write when the read began after that write: Retry must not retry from a
// lagging cache.
func (tr *tracker[T]) readChecked(ctx context.Context) (T, error) {
	p := tr.p
	seq := records.Sequence()
	fresh, err := p.read(ctx)
	if err != nil {
		return fresh, err
	}
	return fresh, tr.checkedRead(fresh, seq)
}

// checkedRead is readChecked's check of fresh, a read begun at seq.
func (tr *tracker[T]) checkedRead(fresh T, seq uint64) error {
	p := tr.p
	f := freshnessOf(recordOf(p.client, fresh, false), fresh.GetUID(), fresh.GetResourceVersion(), seq, true)
	if f.state == book.Stale {
		return &StaleCacheError{Object: p.id(), Read: f.read, Written: f.written, RequeueAfter: StaleCacheRequeue}
	}
	tr.fresh = f // the caller makes fresh the object
	return nil
}

// startRetry is called by Retry before the first attempt, with no status
// change in memory: a Patcher made from a stale read reads the object fresh
// when it can, and refuses to act when it cannot.
func (tr *tracker[T]) startRetry(ctx context.Context) error {
	p := tr.p
	if tr.fresh.state != book.Stale {
		return nil
	}
	if p.opts.apiReader != nil {
		return tr.rebaseFresh(ctx)
	}
	return tr.staleError()
}

// freshness is how one read stood against the record of own writes.
type freshness struct {
	state   book.State
	read    string // the object's resourceVersion
	written string // the recorded write's resourceVersion
}

// freshnessOf compares an object (uid, rv), read by a read that began at
// sequence readSeq, with the last own write to it recorded in e
// (book.Record.Check).
func freshnessOf(e *book.Record, uid types.UID, rv string, readSeq uint64, known bool) freshness {
	f := freshness{read: rv}
	f.state, f.written = e.Check(uid, rv, readSeq, known)
	return f
}
