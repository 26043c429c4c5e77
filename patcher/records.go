package patcher

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The version book (docs/patcher.md): what this process's patchers know
// about each object they wrote or read, one record per object and client.
//
//   - The newest resourceVersion seen: from their own successful writes and
//     from every read they made. The server returned it, so it is a lower
//     bound of the object's current version, and a write based on an older
//     version is certain to conflict: Flush returns the Conflict without
//     sending the request, and Retry goes straight to its re-read.
//   - The last own write: its resourceVersion, the object's UID, and a
//     sequence number taken when the response had arrived. A read that began
//     after that (it took a sequence number at least as high) and still
//     returned an older object came from a lagging cache: the stale read
//     that Fresh and Fetch catch. A read that began earlier raced the write:
//     a write from it conflicts, and the lock handles that.
//   - A write slot: one write per object at a time per client, so a
//     manager's workers queue instead of racing each other into 409s.
//
// Entries are keyed by the client the patcher writes through (a manager's
// client: two managers in one process, as in the demo and in tests, behave
// as two processes would), the object's Go type and its namespace and name.
// At most 2 × MaxTrackedObjects are held: when the current generation is
// full it becomes the old one and the previous old one is dropped; an
// object found in the old generation moves to the current one. Forgetting
// an object only forgoes the shortcut and the stale-read check: the
// server's lock still decides.

// MaxTrackedObjects bounds one generation of the object records: the
// records of the MaxTrackedObjects most recently used objects are always
// kept, and up to as many older ones. An object forgotten is only not
// checked for a stale read any more; its writes are still under the
// optimistic lock. docs/patcher.md gives the memory this takes.
const MaxTrackedObjects = 8192

type recordKey struct {
	client any
	typ    reflect.Type
	key    client.ObjectKey
}

// ownWrite is the last write of this process's patchers to one object.
type ownWrite struct {
	uid             types.UID
	resourceVersion string
	seq             uint64 // objectRecords.seq when it was recorded
}

type objectRecord struct {
	slot chan struct{} // a token: held across one write of the object
	mu   sync.Mutex
	seen string // the newest resourceVersion seen; "" when none
	own  ownWrite
}

type objectRecords struct {
	size     int
	seq      atomic.Uint64
	mu       sync.Mutex
	cur, old map[recordKey]*objectRecord
}

func newObjectRecords(size int) *objectRecords {
	return &objectRecords{size: size, cur: map[recordKey]*objectRecord{}}
}

// records is shared by the process.
var records = newObjectRecords(MaxTrackedObjects)

// sequence is the number of own writes recorded so far. Take it before a
// read begins.
func (r *objectRecords) sequence() uint64 { return r.seq.Load() }

// keyOf names obj, reached through c; ok is false when c cannot key a map:
// nil, or a value that is not comparable. That is a non-comparable type
// (an interceptor client's struct), and also a comparable type holding one
// (a struct{ client.Client } wrapping it, passed by value): hashing either
// panics, so the check is on the value, not only its type.
func keyOf(c client.Client, obj client.Object) (recordKey, bool) {
	if c == nil || !hashable(c) {
		return recordKey{}, false
	}
	return recordKey{client: c, typ: reflect.TypeOf(obj), key: client.ObjectKeyFromObject(obj)}, true
}

// entry returns the object's record, making it when absent; nil when the
// object cannot be tracked.
func (r *objectRecords) entry(c client.Client, obj client.Object) *objectRecord {
	return r.get(c, obj, true)
}

// peek returns the object's record, or nil, without making one: a read
// of an object never written or refused does not take room.
func (r *objectRecords) peek(c client.Client, obj client.Object) *objectRecord {
	return r.get(c, obj, false)
}

// get finds the object's record, moving it from the old generation to the
// current one, and makes it when absent and create is true.
func (r *objectRecords) get(c client.Client, obj client.Object, create bool) *objectRecord {
	k, ok := keyOf(c, obj)
	if !ok {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if e, ok := r.cur[k]; ok {
		return e
	}
	e, ok := r.old[k]
	switch {
	case ok:
		delete(r.old, k)
	case !create:
		return nil
	default:
		e = &objectRecord{slot: make(chan struct{}, 1)}
	}
	if len(r.cur) >= r.size {
		r.old, r.cur = r.cur, make(map[recordKey]*objectRecord, r.size)
	}
	r.cur[k] = e
	return e
}

// observe records that the server had reached rv.
func (e *objectRecord) observe(rv string) {
	if e == nil || rv == "" {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.observeLocked(rv)
}

func (e *objectRecord) observeLocked(rv string) {
	if e.seen == "" {
		e.seen = rv
		return
	}
	switch cmp, err := compareResourceVersions(rv, e.seen); {
	case err != nil:
		e.seen = "" // not comparable (not an etcd-style version): know nothing
	case cmp > 0:
		e.seen = rv
	}
}

// wrote records a completed own write that left the object (uid) at rv,
// unless a newer own write to it was recorded already. Objects without a
// UID (a fake client's) are not recorded as own writes.
func (r *objectRecords) wrote(e *objectRecord, uid types.UID, rv string) {
	if e == nil || rv == "" {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.observeLocked(rv)
	if uid == "" {
		return
	}
	if e.own.uid == uid {
		if cmp, err := compareResourceVersions(rv, e.own.resourceVersion); err == nil && cmp <= 0 {
			return
		}
	}
	e.own = ownWrite{uid: uid, resourceVersion: rv, seq: r.seq.Add(1)}
}

// newerThan returns the newest version seen when it is newer than base.
func (e *objectRecord) newerThan(base string) (string, bool) {
	if e == nil || base == "" {
		return "", false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.seen == "" {
		return "", false
	}
	cmp, err := compareResourceVersions(e.seen, base)
	return e.seen, err == nil && cmp > 0
}

// acquire takes the object's write slot, waiting for another writer of the
// same client to finish, or for ctx.
func (e *objectRecord) acquire(ctx context.Context) (release func(), err error) {
	if e == nil {
		return func() {}, nil
	}
	select {
	case e.slot <- struct{}{}:
		return func() { <-e.slot }, nil
	case <-ctx.Done():
		return nil, ctxError(ctx)
	}
}

// record returns the patcher's record, made on first use (nil when
// untracked).
func (p *Patcher[T]) record() *objectRecord {
	if p.rec == nil && !p.recTried {
		p.recTried = true
		p.rec = records.entry(p.client, p.obj)
	}
	return p.rec
}

// claimWrite takes the object's write slot for one write (of what: "status"
// or "finalizers") and refuses, as a Conflict without a request, a write
// whose base is older than a version already seen. The caller sends its
// request, then calls release.
func (p *Patcher[T]) claimWrite(ctx context.Context, what string) (release func(), err error) {
	release, err = p.record().acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("statuspatch: patch %s of %s: %w", what, p.id(), err)
	}
	base := p.base.GetResourceVersion()
	if known, newer := p.record().newerThan(base); newer {
		release()
		return nil, p.conflict(fmt.Sprintf("resourceVersion %s of the object was already seen here, newer than the base's %s: the %s write would conflict, so it was not sent", known, base, what))
	}
	return release, nil
}

// wrote records a successful write, whose response is written.
func (p *Patcher[T]) wrote(written T) {
	records.wrote(p.record(), written.GetUID(), written.GetResourceVersion())
	p.fresh = freshness{}
}
