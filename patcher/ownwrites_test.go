package patcher

import (
	"fmt"
	"reflect"
	"runtime"
	"strconv"
	"sync"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/types"
)

func testKey(i int) writeKey {
	return writeKey{typ: reflect.TypeOf(&appsv1.Deployment{}), namespace: "ns", name: fmt.Sprint("o", i), uid: types.UID(fmt.Sprint("u", i))}
}

func TestWriteLogStates(t *testing.T) {
	l := newWriteLog(8)
	k := testKey(1)
	before := l.sequence()
	l.record(k, "10")
	after := l.sequence()
	for _, tc := range []struct {
		rv    string
		seq   uint64
		known bool
		want  readState
	}{
		{"10", after, true, readCurrent},
		{"11", after, true, readCurrent},
		{"9", after, true, readStale},     // read began after the write was recorded
		{"9", before, true, readRaced},    // read began before
		{"9", after, false, readRaced},    // start unknown: never stale
		{"abc", after, true, readCurrent}, // not comparable: not judged
	} {
		if got := l.check(k, tc.rv, tc.seq, tc.known).state; got != tc.want {
			t.Errorf("check(rv %s, seq %d, known %v) = %d, want %d", tc.rv, tc.seq, tc.known, got, tc.want)
		}
	}
	l.record(k, "7") // an older write finishing late does not move the record back
	if got := l.check(k, "9", l.sequence(), true).state; got != readStale {
		t.Errorf("after recording an older write: state %d, want stale against 10", got)
	}
	noUID := k
	noUID.uid = ""
	l.record(noUID, "50")
	if got := l.check(noUID, "1", l.sequence(), true).state; got != readCurrent {
		t.Errorf("an object without a UID was tracked")
	}
}

func TestWriteLogBounded(t *testing.T) {
	l := newWriteLog(4)
	for i := range 10 {
		l.record(testKey(i), "100")
	}
	if got := l.entries.Len(); got != 4 {
		t.Fatalf("%d entries, want the bound 4", got)
	}
	if l.check(testKey(0), "1", l.sequence(), true).state != readCurrent {
		t.Error("the oldest entry was not evicted")
	}
	if l.check(testKey(9), "1", l.sequence(), true).state != readStale {
		t.Error("the newest entry was evicted")
	}
}

// Concurrent writers and readers on a few objects: run with -race. The
// record only ever moves forward.
func TestWriteLogConcurrent(t *testing.T) {
	l := newWriteLog(16)
	var wg sync.WaitGroup
	for w := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				k := testKey(i % 4)
				l.record(k, strconv.Itoa(1000+i*16+w))
				_ = l.check(k, "1", l.sequence(), true)
			}
		}()
	}
	wg.Wait()
	for i := range 4 {
		v, ok := l.entries.Get(testKey(i))
		if !ok {
			t.Fatalf("object %d not recorded", i)
		}
		top := 0
		for w := range 16 {
			for j := i; j < 200; j += 4 {
				top = max(top, 1000+j*16+w)
			}
		}
		if got := v.(lastWrite).resourceVersion; got != strconv.Itoa(top) {
			t.Errorf("object %d: recorded %s, want the newest %d", i, got, top)
		}
	}
}

// The bound documented in docs/patcher.md: a full record, with names like
// a real operator's, measured on the heap. Run with -v to see the figure.
func TestWriteLogMemory(t *testing.T) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	l := newWriteLog(MaxTrackedObjects)
	for i := range MaxTrackedObjects {
		k := writeKey{typ: reflect.TypeOf(&appsv1.Deployment{}), namespace: "team-namespace-a",
			name: fmt.Sprintf("rollout-with-a-longish-name-%06d", i), uid: types.UID(fmt.Sprintf("6f1c2a34-8d0e-4b5f-9a7c-%012d", i))}
		l.record(k, strconv.Itoa(123456789+i))
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	used := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d objects: %d bytes, %d an object", l.entries.Len(), used, used/MaxTrackedObjects)
	if per := used / MaxTrackedObjects; per > 1024 {
		t.Errorf("%d bytes an object, want well under 1 KiB (docs/patcher.md says about 330)", per)
	}
	runtime.KeepAlive(l)
}
