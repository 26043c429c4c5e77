package patcher

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
)

func deploymentNamed(name string) client.Object {
	return &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name}}
}

// testRecord is the record of Deployment o<i>, written through c.
func testRecord(r *objectRecords, c client.Client, i int) *objectRecord {
	return r.entry(c, deploymentNamed(fmt.Sprint("o", i)))
}

func testUID(i int) types.UID { return types.UID(fmt.Sprint("u", i)) }

func TestOwnWriteStates(t *testing.T) {
	r := newObjectRecords(8)
	e := testRecord(r, fake.NewClientBuilder().Build(), 1)
	before := r.sequence()
	r.wrote(e, testUID(1), "10")
	after := r.sequence()
	for _, tc := range []struct {
		uid   types.UID
		rv    string
		seq   uint64
		known bool
		want  readState
	}{
		{testUID(1), "10", after, true, readCurrent},
		{testUID(1), "11", after, true, readCurrent},
		{testUID(1), "9", after, true, readStale},     // read began after the write was recorded
		{testUID(1), "9", before, true, readRaced},    // read began before
		{testUID(1), "9", after, false, readRaced},    // start unknown: never stale
		{testUID(1), "abc", after, true, readCurrent}, // not comparable: not judged
		{testUID(2), "9", after, true, readCurrent},   // another object of that name (recreated)
		{"", "9", after, true, readCurrent},           // no UID: not judged
	} {
		if got := e.check(tc.uid, tc.rv, tc.seq, tc.known).state; got != tc.want {
			t.Errorf("check(uid %s, rv %s, seq %d, known %v) = %d, want %d", tc.uid, tc.rv, tc.seq, tc.known, got, tc.want)
		}
	}
	r.wrote(e, testUID(1), "7") // an older write finishing late does not move the record back
	if got := e.check(testUID(1), "9", r.sequence(), true).state; got != readStale {
		t.Errorf("after recording an older write: state %d, want stale against 10", got)
	}
	r.wrote(e, testUID(2), "8") // the object was recreated: its first write replaces the record
	if got := e.check(testUID(2), "7", r.sequence(), true).state; got != readStale {
		t.Errorf("after a write to the recreated object: state %d, want stale against 8", got)
	}
	noUID := testRecord(r, fake.NewClientBuilder().Build(), 2)
	r.wrote(noUID, "", "50")
	if got := noUID.check("", "1", r.sequence(), true).state; got != readCurrent {
		t.Errorf("an object without a UID was tracked")
	}
	if _, newer := noUID.newerThan("49"); !newer {
		t.Errorf("a write without a UID was not seen as the newest version")
	}
}

// The records hold at most two generations of size objects, and an object
// found in the old generation keeps what was recorded for it.
func TestRecordsAreBounded(t *testing.T) {
	const size = 64
	c := fake.NewClientBuilder().Build()
	r := newObjectRecords(size)
	first := r.entry(c, deploymentNamed("first"))
	r.wrote(first, "uid-first", "42")
	for i := range 3 * size {
		testRecord(r, c, i)
		if n := len(r.cur) + len(r.old); n > 2*size {
			t.Fatalf("%d objects held after %d entries, bound %d", n, i+1, 2*size)
		}
	}
	if r.peek(c, deploymentNamed("first")) != nil {
		t.Fatal("the oldest object was not forgotten")
	}
	r = newObjectRecords(size)
	first = r.entry(c, deploymentNamed("first"))
	r.wrote(first, "uid-first", "42")
	for i := range size {
		testRecord(r, c, i) // "first" moves to the old generation
	}
	if r.peek(c, deploymentNamed("first")) != first {
		t.Fatal("peek did not find an object in the old generation")
	}
	again := r.entry(c, deploymentNamed("first"))
	if again != first {
		t.Fatal("an object in the old generation got a new entry")
	}
	if v, newer := again.newerThan("41"); !newer || v != "42" {
		t.Fatalf("newerThan(41) = %q, %v after a generation turned over, want 42, true", v, newer)
	}
	if again.check("uid-first", "41", r.sequence(), true).state != readStale {
		t.Fatal("the own write was forgotten when the generation turned over")
	}
	if r.peek(c, deploymentNamed("never-written")) != nil || len(r.cur)+len(r.old) > 2*size {
		t.Fatal("peek made a record")
	}
}

// Entries are per client (one per manager) and per Go type.
func TestRecordKeys(t *testing.T) {
	r := newObjectRecords(8)
	c1, c2 := fake.NewClientBuilder().Build(), fake.NewClientBuilder().Build()
	e1 := r.entry(c1, deploymentNamed("x"))
	e2 := r.entry(c2, deploymentNamed("x"))
	e3 := r.entry(c1, &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "x"}})
	if e1 == e2 || e1 == e3 {
		t.Fatal("two clients, or two types, share an entry")
	}
	if e := r.entry(nonComparable{}, deploymentNamed("x")); e != nil {
		t.Fatal("a client that cannot key a map got an entry")
	}
	if e := r.entry(nil, deploymentNamed("x")); e != nil {
		t.Fatal("a nil client got an entry")
	}
}

type nonComparable struct {
	client.Client
	_ []int
}

func TestRecordObserve(t *testing.T) {
	e := &objectRecord{slot: make(chan struct{}, 1)}
	for _, step := range []struct {
		observe, base string
		newer         bool
	}{
		{"5", "4", true},
		{"3", "4", true}, // an older observation does not lower the mark
		{"", "5", false},
		{"5", "5", false},
		{"9", "", false}, // no base: nothing to compare
		{"not-a-number", "4", false},
	} {
		e.observe(step.observe)
		if _, newer := e.newerThan(step.base); newer != step.newer {
			t.Fatalf("after observe(%q): newerThan(%q) = %v, want %v", step.observe, step.base, newer, step.newer)
		}
	}
}

func TestRecordAcquireHonoursTheContext(t *testing.T) {
	e := &objectRecord{slot: make(chan struct{}, 1)}
	release, err := e.acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cause := errors.New("reconcile abandoned")
	cancel(cause)
	if _, err := e.acquire(ctx); !errors.Is(err, context.Canceled) || !errors.Is(err, cause) {
		t.Fatalf("acquire on a held slot with a done context = %v, want the context's error and cause", err)
	}
	release()
	if release, err := e.acquire(context.Background()); err != nil {
		t.Fatal(err)
	} else {
		release()
	}
}

// Concurrent writers and readers on a few objects: run with -race. The
// records only ever move forward.
func TestRecordsConcurrent(t *testing.T) {
	r := newObjectRecords(16)
	c := fake.NewClientBuilder().Build()
	var wg sync.WaitGroup
	for w := range 16 {
		wg.Add(1)
		go func() { // not wg.Go: the runtime's tests build with Go 1.24
			defer wg.Done()
			for i := range 200 {
				e := testRecord(r, c, i%4)
				r.wrote(e, testUID(i%4), strconv.Itoa(1000+i*16+w))
				_ = e.check(testUID(i%4), "1", r.sequence(), true)
				_, _ = e.newerThan("1")
			}
		}()
	}
	wg.Wait()
	for i := range 4 {
		e := r.peek(c, deploymentNamed(fmt.Sprint("o", i)))
		if e == nil {
			t.Fatalf("object %d not recorded", i)
		}
		top := 0
		for w := range 16 {
			for j := i; j < 200; j += 4 {
				top = max(top, 1000+j*16+w)
			}
		}
		if e.own.resourceVersion != strconv.Itoa(top) || e.seen != strconv.Itoa(top) {
			t.Errorf("object %d: own write %s, seen %s, want the newest %d", i, e.own.resourceVersion, e.seen, top)
		}
	}
}

// The bound documented in docs/patcher.md: a full generation, with names
// like a real operator's, measured on the heap. Run with -v to see the
// figure.
func TestRecordsMemory(t *testing.T) {
	c := fake.NewClientBuilder().Build()
	objs := make([]client.Object, MaxTrackedObjects)
	for i := range objs {
		objs[i] = &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "team-namespace-a", Name: fmt.Sprintf("rollout-with-a-longish-name-%06d", i)}}
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := newObjectRecords(MaxTrackedObjects)
	for i, o := range objs {
		r.wrote(r.entry(c, o), types.UID(fmt.Sprintf("6f1c2a34-8d0e-4b5f-9a7c-%012d", i)), strconv.Itoa(123456789+i))
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	used := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d objects: %d bytes, %d an object", len(r.cur)+len(r.old), used, used/MaxTrackedObjects)
	if per := used / MaxTrackedObjects; per > 1024 {
		t.Errorf("%d bytes an object, want well under 1 KiB (docs/patcher.md gives the figure)", per)
	}
	runtime.KeepAlive(r)
	runtime.KeepAlive(objs)
}
