package book

import (
	"k8s.io/apimachinery/pkg/types"

	"github.com/statuspatch/statuspatch/patcher/internal/wire"
)

// The stale-cache check (patcher.ErrStaleCache): how a read object stands
// against this process's own last write to it.

// State says how a read object stands against this process's writes.
type State int

const (
	// Current: no recorded own write is newer than the object.
	Current State = iota
	// Raced: the object is older than a recorded own write that completed
	// after the read may have begun. A write from it will conflict; that is
	// an ordinary race, not a stale cache.
	Raced
	// Stale: the read began after a newer own write had completed, and
	// still returned the older object: the reader (a cache) lags.
	Stale
)

// Check compares an object (uid, rv), read by a read that began at
// sequence readSeq (Book.Sequence), with the last own write to it recorded
// in e. known is false when the read's start is unknown (patcher.New, on
// an object the caller read): then an older object is never called stale,
// only raced. Versions that cannot be compared conclude nothing. written is
// the own write's resourceVersion when the state is not Current.
func (e *Record) Check(uid types.UID, rv string, readSeq uint64, known bool) (state State, written string) {
	if e == nil {
		return Current, ""
	}
	e.mu.Lock()
	own := e.own
	e.mu.Unlock()
	return check(own, uid, rv, readSeq, known)
}

func check(own ownWrite, uid types.UID, rv string, readSeq uint64, known bool) (State, string) {
	if uid == "" || rv == "" || own.uid != uid || own.resourceVersion == "" {
		return Current, ""
	}
	if cmp, err := wire.CompareResourceVersions(rv, own.resourceVersion); err != nil || cmp >= 0 {
		return Current, ""
	}
	if known && own.seq <= readSeq {
		return Stale, own.resourceVersion
	}
	return Raced, own.resourceVersion
}
