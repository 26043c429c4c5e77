package guard

import "k8s.io/apimachinery/pkg/types"

// The stale-cache check (patcher.ErrStaleCache): how a read object stands
// against this process's own last write to it.

// ReadState says how a read object stands against this process's writes.
type ReadState int

const (
	// ReadCurrent: no recorded own write is newer than the object.
	ReadCurrent ReadState = iota
	// ReadRaced: the object is older than a recorded own write that
	// completed after the read may have begun. A write from it will
	// conflict; that is an ordinary race, not a stale cache.
	ReadRaced
	// ReadStale: the read began after a newer own write had completed, and
	// still returned the older object: the reader (a cache) lags.
	ReadStale
)

// OwnWrite is this process's last recorded write of an object: the
// object's UID, the resourceVersion the write produced, and the records'
// sequence number when it was recorded.
type OwnWrite struct {
	UID             types.UID
	ResourceVersion string
	Seq             uint64
}

// CheckRead compares an object (uid, rv), read by a read that began at
// sequence readSeq, with the last own write to it. known is false when the
// read's start is unknown (patcher.New, on an object the caller read): then
// an older object is never called stale, only raced. compare orders two
// resourceVersions (-1, 0, +1; an error when they cannot be compared, and
// then nothing is concluded). written is own's resourceVersion when the
// state is not ReadCurrent.
func CheckRead(own OwnWrite, uid types.UID, rv string, readSeq uint64, known bool,
	compare func(a, b string) (int, error)) (state ReadState, written string) {
	if uid == "" || rv == "" || own.UID != uid || own.ResourceVersion == "" {
		return ReadCurrent, ""
	}
	if cmp, err := compare(rv, own.ResourceVersion); err != nil || cmp >= 0 {
		return ReadCurrent, ""
	}
	if known && own.Seq <= readSeq {
		return ReadStale, own.ResourceVersion
	}
	return ReadRaced, own.ResourceVersion
}
