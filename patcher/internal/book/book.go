package book

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/types"

	"github.com/statuspatch/statuspatch/patcher/internal/wire"
)

// Book is the version book: one Record per object and client, at most two
// generations of size records. It is safe for concurrent use.
type Book struct {
	size     int
	seq      atomic.Uint64
	mu       sync.Mutex
	cur, old map[key]*Record
}

type key struct {
	client any
	typ    reflect.Type
	name   types.NamespacedName
}

// ownWrite is the last write of this process's patchers to one object.
type ownWrite struct {
	uid             types.UID
	resourceVersion string
	seq             uint64 // Book.seq when it was recorded
}

// Record is what the book knows about one object reached through one
// client. A nil *Record is an untracked object: every method works on it
// and knows nothing.
type Record struct {
	book *Book
	slot chan struct{} // a token: held across one write of the object
	mu   sync.Mutex
	seen string // the newest resourceVersion seen; "" when none
	own  ownWrite
}

// New returns an empty book that keeps size records in a generation.
func New(size int) *Book {
	return &Book{size: size, cur: map[key]*Record{}}
}

// Sequence is the number of own writes recorded so far. Take it before a
// read begins.
func (b *Book) Sequence() uint64 { return b.seq.Load() }

// Entry finds the record of the object of Go type typ named name, reached
// through client, moving it from the old generation to the current one. It
// makes the record when absent and create is true, and returns nil when
// there is none, or when client cannot key a map: nil, or a value that is
// not comparable. That is a non-comparable type (an interceptor client's
// struct), and also a comparable type holding one (a struct{ client.Client }
// wrapping it, passed by value): hashing either panics, so the check is on
// the value, not only its type. The type is checked first: a type that is
// not comparable never makes a comparable value, and walking such a value
// (an interceptor client, two structs of funcs deep) cost a write more than
// the rest of the book.
func (b *Book) Entry(client any, typ reflect.Type, name types.NamespacedName, create bool) *Record {
	if client == nil || !reflect.TypeOf(client).Comparable() || !reflect.ValueOf(client).Comparable() {
		return nil
	}
	k := key{client: client, typ: typ, name: name}
	b.mu.Lock()
	defer b.mu.Unlock()
	if e, ok := b.cur[k]; ok {
		return e
	}
	e, ok := b.old[k]
	switch {
	case ok:
		delete(b.old, k)
	case !create:
		return nil
	default:
		e = &Record{book: b, slot: make(chan struct{}, 1)}
	}
	if len(b.cur) >= b.size {
		b.old, b.cur = b.cur, make(map[key]*Record, b.size)
	}
	b.cur[k] = e
	return e
}

// Observe records that the server had reached rv.
func (e *Record) Observe(rv string) {
	if e == nil || rv == "" {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.observeLocked(rv)
}

func (e *Record) observeLocked(rv string) {
	if e.seen == "" {
		e.seen = rv
		return
	}
	switch cmp, err := wire.CompareResourceVersions(rv, e.seen); {
	case err != nil:
		e.seen = "" // not comparable (not an etcd-style version): know nothing
	case cmp > 0:
		e.seen = rv
	}
}

// Wrote records a completed own write that left the object (uid) at rv,
// unless a newer own write to it was recorded already. Objects without a
// UID (a fake client's) are not recorded as own writes.
func (e *Record) Wrote(uid types.UID, rv string) {
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
		if cmp, err := wire.CompareResourceVersions(rv, e.own.resourceVersion); err == nil && cmp <= 0 {
			return
		}
	}
	e.own = ownWrite{uid: uid, resourceVersion: rv, seq: e.book.seq.Add(1)}
}

// NewerThan returns the newest version seen when it is newer than base.
func (e *Record) NewerThan(base string) (string, bool) {
	if e == nil || base == "" {
		return "", false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.seen == "" {
		return "", false
	}
	cmp, err := wire.CompareResourceVersions(e.seen, base)
	return e.seen, err == nil && cmp > 0
}

// Acquire takes the object's write slot, waiting for another writer of the
// same client to finish, or for ctx: then the error matches ctx.Err() and
// its cause.
func (e *Record) Acquire(ctx context.Context) (release func(), err error) {
	if e == nil {
		return func() {}, nil
	}
	select {
	case e.slot <- struct{}{}:
		return func() { <-e.slot }, nil
	case <-ctx.Done():
		// ctx.Err() is one of context's comparable errors: errors.Is
		// cannot panic on a cause whose value is not comparable.
		err, cause := ctx.Err(), context.Cause(ctx)
		if cause != nil && !errors.Is(err, cause) {
			return nil, fmt.Errorf("%w: %w", err, cause)
		}
		return nil, err
	}
}
