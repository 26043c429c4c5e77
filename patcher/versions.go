package patcher

import (
	"context"
	"fmt"
	"reflect"
	"sync"

	"k8s.io/apimachinery/pkg/util/resourceversion"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The version book: for every object a client's patchers have seen, the
// newest resourceVersion they know the server has reached (from their own
// successful writes, and from every read they made). A resourceVersion the
// server returned is a lower bound of the object's current one, so a write
// based on an older version is certain to conflict: Flush then returns the
// Conflict without sending the request, and Retry goes straight to its
// re-read. The book also lets one write per object at a time through, per
// client: writers in one process queue instead of racing each other into
// 409s, and each finds out from the book, not from the server, that it must
// re-read.
//
// The book is keyed by the client the patcher writes through (a manager's
// client: one book per manager, so two managers in one process, as in the
// demo and in tests, behave as two processes would), the object's Go type
// and its namespace and name. It holds at most 2 × versionBookSize objects:
// when the current generation is full it becomes the old one and the
// previous old one is dropped; an object found in the old generation moves
// to the current one. Forgetting an object only forgoes the shortcut: the
// server's lock still decides.

// versionBookSize bounds one generation of the book.
const versionBookSize = 8192

type versionKey struct {
	client any
	typ    reflect.Type
	key    client.ObjectKey
}

type versionEntry struct {
	slot chan struct{} // a token: held across one write of the object
	mu   sync.Mutex
	rv   string // the newest resourceVersion seen; "" when none
}

type versionBook struct {
	mu       sync.Mutex
	cur, old map[versionKey]*versionEntry
}

var versions = &versionBook{cur: map[versionKey]*versionEntry{}}

// entry returns the object's entry, making it when absent; ok is false
// when the client cannot key a map (a non-comparable client type).
func (b *versionBook) entry(c client.Client, obj client.Object) (*versionEntry, bool) {
	if c == nil || !reflect.TypeOf(c).Comparable() {
		return nil, false
	}
	k := versionKey{client: c, typ: reflect.TypeOf(obj), key: client.ObjectKeyFromObject(obj)}
	b.mu.Lock()
	defer b.mu.Unlock()
	if e, ok := b.cur[k]; ok {
		return e, true
	}
	e, ok := b.old[k]
	if ok {
		delete(b.old, k)
	} else {
		e = &versionEntry{slot: make(chan struct{}, 1)}
	}
	if len(b.cur) >= versionBookSize {
		b.old, b.cur = b.cur, make(map[versionKey]*versionEntry, versionBookSize)
	}
	b.cur[k] = e
	return e, true
}

// observe records that the server had reached rv.
func (e *versionEntry) observe(rv string) {
	if e == nil || rv == "" {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.rv == "" {
		e.rv = rv
		return
	}
	switch cmp, err := resourceversion.CompareResourceVersion(rv, e.rv); {
	case err != nil:
		e.rv = "" // not comparable (not an etcd-style version): know nothing
	case cmp > 0:
		e.rv = rv
	}
}

// newerThan returns the recorded version when it is newer than base.
func (e *versionEntry) newerThan(base string) (string, bool) {
	if e == nil || base == "" {
		return "", false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.rv == "" {
		return "", false
	}
	cmp, err := resourceversion.CompareResourceVersion(e.rv, base)
	return e.rv, err == nil && cmp > 0
}

// acquire takes the object's write slot, waiting for another writer of the
// same client to finish, or for ctx.
func (e *versionEntry) acquire(ctx context.Context) (release func(), err error) {
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

// versions returns the patcher's entry in the book (nil when untracked).
func (p *Patcher[T]) versions() *versionEntry {
	if p.version == nil && !p.versionTried {
		p.versionTried = true
		p.version, _ = versions.entry(p.client, p.obj)
	}
	return p.version
}

// claimWrite takes the object's write slot for one write (of what: "status"
// or "finalizers") and refuses, as a Conflict without a request, a write
// whose base is older than a version the book has seen. The caller sends
// its request, then calls release.
func (p *Patcher[T]) claimWrite(ctx context.Context, what string) (release func(), err error) {
	release, err = p.versions().acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("statuspatch: patch %s of %s: %w", what, p.id(), err)
	}
	base := p.base.GetResourceVersion()
	if known, newer := p.versions().newerThan(base); newer {
		release()
		return nil, p.conflict(fmt.Sprintf("resourceVersion %s of the object was already seen here, newer than the base's %s: the %s write would conflict, so it was not sent", known, base, what))
	}
	return release, nil
}

// wrote records a successful write, whose response is written, in the
// version book and in the own-writes record.
func (p *Patcher[T]) wrote(written T) {
	p.versions().observe(written.GetResourceVersion())
	p.recordWrite(written)
}
