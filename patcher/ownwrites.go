package patcher

import (
	"reflect"
	"sync"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/resourceversion"
	"k8s.io/utils/lru"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// MaxTrackedObjects bounds the record of this process's own writes: the
// resourceVersion of the last successful write to each of at most this many
// objects, least recently used evicted first: measured at about 330 bytes an
// object with 34-character names, so about 2.7 MB when full (see
// docs/patcher.md). An evicted object is only not checked for a stale read
// any more; its writes are still under the optimistic lock.
const MaxTrackedObjects = 8192

// ownWrites is the record of the patchers' own writes. It is shared by the
// process, and keyed by the client written through: a manager's patchers
// recognise that manager's writes, as they would in a process of its own,
// and two managers in one process (the demo, tests) do not see each
// other's writes as their own.
var ownWrites = newWriteLog(MaxTrackedObjects)

// writeKey names one object. The UID tells apart two objects of one name
// (recreated, or on two clusters), whose resourceVersions don't compare.
type writeKey struct {
	client          any
	typ             reflect.Type
	namespace, name string
	uid             types.UID
}

// lastWrite is the last write to one object: its resourceVersion and the
// write log's sequence number when it was recorded, which is after the
// write's response arrived.
type lastWrite struct {
	resourceVersion string
	seq             uint64
}

// writeLog records, per object, the newest resourceVersion this process's
// patchers wrote, and orders each record against reads by a sequence
// number: a reader takes sequence() before it reads, so a record whose seq
// is at most that number was complete before the read began. Safe for
// concurrent use.
type writeLog struct {
	mu      sync.Mutex // orders compare-and-record; the lru has its own lock
	seq     atomic.Uint64
	entries *lru.Cache // writeKey -> lastWrite
}

func newWriteLog(size int) *writeLog {
	return &writeLog{entries: lru.New(size)}
}

// sequence is the number of writes recorded so far. Take it before a read
// begins.
func (l *writeLog) sequence() uint64 { return l.seq.Load() }

// record notes a completed write that left obj at resourceVersion rv,
// unless a newer write to obj was recorded already. Objects without a UID
// (a fake client's) are not recorded.
func (l *writeLog) record(key writeKey, rv string) {
	if key.uid == "" || rv == "" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if v, ok := l.entries.Get(key); ok {
		if cmp, err := resourceversion.CompareResourceVersion(rv, v.(lastWrite).resourceVersion); err == nil && cmp <= 0 {
			return
		}
	}
	l.entries.Add(key, lastWrite{resourceVersion: rv, seq: l.seq.Add(1)})
}

// readState says how a read object stands against this process's writes.
type readState int

const (
	// readCurrent: no recorded write is newer than the object.
	readCurrent readState = iota
	// readRaced: the object is older than a recorded write that completed
	// after the read may have begun. A write from it will conflict; that is
	// an ordinary race, not a stale cache.
	readRaced
	// readStale: the read began after a newer write had completed, and
	// still returned the older object: the reader (a cache) lags.
	readStale
)

// freshness is how one read stood against the write log.
type freshness struct {
	state   readState
	read    string // the object's resourceVersion
	written string // the recorded write's resourceVersion
}

// check compares obj, read by a read that began at sequence readSeq, with
// the last recorded write to it. known is false when the read's start is
// unknown (New, on an object the caller read): then an older object is
// never called stale, only raced.
func (l *writeLog) check(key writeKey, rv string, readSeq uint64, known bool) freshness {
	f := freshness{read: rv}
	if key.uid == "" || rv == "" {
		return f
	}
	v, ok := l.entries.Get(key)
	if !ok {
		return f
	}
	w := v.(lastWrite)
	cmp, err := resourceversion.CompareResourceVersion(rv, w.resourceVersion)
	if err != nil || cmp >= 0 {
		return f
	}
	f.written = w.resourceVersion
	if known && w.seq <= readSeq {
		f.state = readStale
	} else {
		f.state = readRaced
	}
	return f
}

// writeKeyOf names obj, written through c, in the write log. A client that
// cannot key a map (a struct value, such as an interceptor client) gives a
// key without UID: not tracked.
func writeKeyOf(c client.Client, obj client.Object) writeKey {
	if c == nil || !reflect.TypeOf(c).Comparable() {
		return writeKey{}
	}
	return writeKey{client: c, typ: reflect.TypeOf(obj), namespace: obj.GetNamespace(), name: obj.GetName(), uid: obj.GetUID()}
}
