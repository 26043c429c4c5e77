package book

import (
	"context"
	"errors"
	"fmt"
	"reflect"
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

// maxTracked is patcher.maxTracked, the size of the patcher's book
// (docs/patcher.md gives its memory).
const maxTracked = 8192

var deploymentType = reflect.TypeOf(&appsv1.Deployment{})

func named(name string) types.NamespacedName {
	return types.NamespacedName{Namespace: "default", Name: name}
}

// entry is the record of Deployment name, written through c (made).
func entry(b *Book, c client.Client, name string) *Record {
	return b.Entry(c, deploymentType, named(name), true)
}

// peek is the record of Deployment name, written through c, or nil.
func peek(b *Book, c client.Client, name string) *Record {
	return b.Entry(c, deploymentType, named(name), false)
}

// testRecord is the record of Deployment o<i>, written through c.
func testRecord(b *Book, c client.Client, i int) *Record {
	return entry(b, c, fmt.Sprint("o", i))
}

func testUID(i int) types.UID { return types.UID(fmt.Sprint("u", i)) }

func TestOwnWriteStates(t *testing.T) {
	r := New(8)
	e := testRecord(r, fake.NewClientBuilder().Build(), 1)
	before := r.Sequence()
	e.Wrote(testUID(1), "10")
	after := r.Sequence()
	for _, tc := range []struct {
		uid   types.UID
		rv    string
		seq   uint64
		known bool
		want  State
	}{
		{testUID(1), "10", after, true, Current},
		{testUID(1), "11", after, true, Current},
		{testUID(1), "9", after, true, Stale},     // read began after the write was recorded
		{testUID(1), "9", before, true, Raced},    // read began before
		{testUID(1), "9", after, false, Raced},    // start unknown: never stale
		{testUID(1), "abc", after, true, Current}, // not comparable: not judged
		{testUID(2), "9", after, true, Current},   // another object of that name (recreated)
		{"", "9", after, true, Current},           // no UID: not judged
	} {
		if got := e.state(tc.uid, tc.rv, tc.seq, tc.known); got != tc.want {
			t.Errorf("check(uid %s, rv %s, seq %d, known %v) = %d, want %d", tc.uid, tc.rv, tc.seq, tc.known, got, tc.want)
		}
	}
	e.Wrote(testUID(1), "7") // an older write finishing late does not move the record back
	if got := e.state(testUID(1), "9", r.Sequence(), true); got != Stale {
		t.Errorf("after recording an older write: state %d, want stale against 10", got)
	}
	e.Wrote(testUID(2), "8") // the object was recreated: its first write replaces the record
	if got := e.state(testUID(2), "7", r.Sequence(), true); got != Stale {
		t.Errorf("after a write to the recreated object: state %d, want stale against 8", got)
	}
	noUID := testRecord(r, fake.NewClientBuilder().Build(), 2)
	noUID.Wrote("", "50")
	if got := noUID.state("", "1", r.Sequence(), true); got != Current {
		t.Errorf("an object without a UID was tracked")
	}
	if _, newer := noUID.NewerThan("49"); !newer {
		t.Errorf("a write without a UID was not seen as the newest version")
	}
}

// The records hold at most two generations of size objects, and an object
// found in the old generation keeps what was recorded for it.
func TestRecordsAreBounded(t *testing.T) {
	const size = 64
	c := fake.NewClientBuilder().Build()
	r := New(size)
	first := entry(r, c, "first")
	first.Wrote("uid-first", "42")
	for i := range 3 * size {
		testRecord(r, c, i)
		if n := len(r.cur) + len(r.old); n > 2*size {
			t.Fatalf("%d objects held after %d entries, bound %d", n, i+1, 2*size)
		}
	}
	if peek(r, c, "first") != nil {
		t.Fatal("the oldest object was not forgotten")
	}
	r = New(size)
	first = entry(r, c, "first")
	first.Wrote("uid-first", "42")
	for i := range size {
		testRecord(r, c, i) // "first" moves to the old generation
	}
	if peek(r, c, "first") != first {
		t.Fatal("peek did not find an object in the old generation")
	}
	again := entry(r, c, "first")
	if again != first {
		t.Fatal("an object in the old generation got a new entry")
	}
	if v, newer := again.NewerThan("41"); !newer || v != "42" {
		t.Fatalf("newerThan(41) = %q, %v after a generation turned over, want 42, true", v, newer)
	}
	if again.state("uid-first", "41", r.Sequence(), true) != Stale {
		t.Fatal("the own write was forgotten when the generation turned over")
	}
	if peek(r, c, "never-written") != nil || len(r.cur)+len(r.old) > 2*size {
		t.Fatal("peek made a record")
	}
}

// Entries are per client (one per manager) and per Go type.
func TestRecordKeys(t *testing.T) {
	r := New(8)
	c1, c2 := fake.NewClientBuilder().Build(), fake.NewClientBuilder().Build()
	e1 := entry(r, c1, "x")
	e2 := entry(r, c2, "x")
	e3 := r.Entry(c1, reflect.TypeOf(&appsv1.StatefulSet{}), named("x"), true)
	if e1 == e2 || e1 == e3 {
		t.Fatal("two clients, or two types, share an entry")
	}
	if e := entry(r, nonComparable{}, "x"); e != nil {
		t.Fatal("a client that cannot key a map got an entry")
	}
	if e := entry(r, nil, "x"); e != nil {
		t.Fatal("a nil client got an entry")
	}
	// A type that is not comparable keys no map, whatever its value:
	// reflect.Value.Comparable calls a struct holding an empty array of
	// uncomparable structs comparable, and hashing it panics.
	if e := entry(r, emptyArrayOfFuncs{}, "x"); e != nil {
		t.Fatal("a client of a type that cannot key a map got an entry")
	}
	if e := entry(r, funcsByValue{Client: c1}, "x"); e != nil {
		t.Fatal("a client holding funcs by value (an interceptor) got an entry")
	}
}

type emptyArrayOfFuncs struct {
	client.Client
	_ [0]struct{ f func() }
}

type funcsByValue struct {
	client.Client
	_ func() // a func field, as an interceptor client holds
}

type nonComparable struct {
	client.Client
	_ []int
}

func TestRecordObserve(t *testing.T) {
	e := New(1).Entry("c", deploymentType, named("x"), true)
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
		e.Observe(step.observe)
		if _, newer := e.NewerThan(step.base); newer != step.newer {
			t.Fatalf("after observe(%q): newerThan(%q) = %v, want %v", step.observe, step.base, newer, step.newer)
		}
	}
}

func TestRecordAcquireHonoursTheContext(t *testing.T) {
	e := New(1).Entry("c", deploymentType, named("x"), true)
	release, err := e.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cause := errors.New("reconcile abandoned")
	cancel(cause)
	if _, err := e.Acquire(ctx); !errors.Is(err, context.Canceled) || !errors.Is(err, cause) {
		t.Fatalf("acquire on a held slot with a done context = %v, want the context's error and cause", err)
	}
	release()
	if release, err := e.Acquire(context.Background()); err != nil {
		t.Fatal(err)
	} else {
		release()
	}
}

// mapCause is an error whose type is comparable and whose value is not: ==
// on two of them panics.
type mapCause struct{ v any }

func (mapCause) Error() string { return "map cause" }

// A cancellation cause that cannot be compared is named, without a panic.
func TestRecordAcquireUncomparableCause(t *testing.T) {
	e := New(1).Entry("c", deploymentType, named("x"), true)
	release, err := e.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(mapCause{v: map[string]int{}})
	if _, err := e.Acquire(ctx); !errors.Is(err, context.Canceled) || !errors.As(err, new(mapCause)) {
		t.Fatalf("acquire with an uncomparable cause = %v, want the context's error and the cause", err)
	}
}

// Concurrent writers and readers on a few objects: run with -race. The
// records only ever move forward.
func TestRecordsConcurrent(t *testing.T) {
	r := New(16)
	c := fake.NewClientBuilder().Build()
	var wg sync.WaitGroup
	for w := range 16 {
		wg.Add(1)
		go func() { // not wg.Go: the runtime's tests build with Go 1.24
			defer wg.Done()
			for i := range 200 {
				e := testRecord(r, c, i%4)
				e.Wrote(testUID(i%4), strconv.Itoa(1000+i*16+w))
				_, _ = e.Check(testUID(i%4), "1", r.Sequence(), true)
				_, _ = e.NewerThan("1")
			}
		}()
	}
	wg.Wait()
	for i := range 4 {
		e := peek(r, c, fmt.Sprint("o", i))
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
	objs := make([]client.Object, maxTracked)
	for i := range objs {
		objs[i] = &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "team-namespace-a", Name: fmt.Sprintf("rollout-with-a-longish-name-%06d", i)}}
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := New(maxTracked)
	for i, o := range objs {
		r.Entry(c, reflect.TypeOf(o), client.ObjectKeyFromObject(o), true).Wrote(types.UID(fmt.Sprintf("6f1c2a34-8d0e-4b5f-9a7c-%012d", i)), strconv.Itoa(123456789+i))
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	used := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d objects: %d bytes, %d an object", len(r.cur)+len(r.old), used, used/maxTracked)
	if per := used / maxTracked; per > 1024 {
		t.Errorf("%d bytes an object, want well under 1 KiB (docs/patcher.md gives the figure)", per)
	}
	runtime.KeepAlive(r)
	runtime.KeepAlive(objs)
}

// state is Check's State alone.
func (e *Record) state(uid types.UID, rv string, readSeq uint64, known bool) State {
	s, _ := e.Check(uid, rv, readSeq, known)
	return s
}

// A read older than the own write is stale only when the read began after
// the write was recorded; never when its start is unknown.
func TestCheck(t *testing.T) {
	own := ownWrite{uid: "u", resourceVersion: "10", seq: 5}
	for _, tc := range []struct {
		uid         types.UID
		rv          string
		seq         uint64
		known       bool
		want        State
		wantWritten string
	}{
		{"u", "10", 5, true, Current, ""},
		{"u", "11", 5, true, Current, ""},
		{"u", "9", 5, true, Stale, "10"},
		{"u", "9", 4, true, Raced, "10"},
		{"u", "9", 5, false, Raced, "10"},
		{"u", "x", 5, true, Current, ""}, // not comparable: not judged
		{"v", "9", 5, true, Current, ""}, // another object of that name
		{"", "9", 5, true, Current, ""},
		{"u", "", 5, true, Current, ""},
	} {
		state, written := check(own, tc.uid, tc.rv, tc.seq, tc.known)
		if state != tc.want || written != tc.wantWritten {
			t.Errorf("check(%+v, %q, %q, %d, %v) = %d, %q; want %d, %q",
				own, tc.uid, tc.rv, tc.seq, tc.known, state, written, tc.want, tc.wantWritten)
		}
	}
	if state, _ := check(ownWrite{}, "u", "1", 5, true); state != Current {
		t.Errorf("no own write: %d", state)
	}
	var untracked *Record
	if state, written := untracked.Check("u", "1", 5, true); state != Current || written != "" {
		t.Errorf("an untracked object: %d, %q", state, written)
	}
}

func TestAnswersKeepRecentVersionsPerObject(t *testing.T) {
	a := NewAnswers(2)
	for i := range 20 {
		a.Add("u", fmt.Sprint(i))
	}
	if a.Has("u", "3") || !a.Has("u", "4") || !a.Has("u", "19") || a.Has("v", "19") {
		t.Fatal("want the last 16 versions of u only")
	}
	a.Add("v", "1")
	a.Add("w", "1") // a new generation: u and v move to the old one
	a.Add("x", "1")
	if !a.Has("u", "19") {
		t.Fatal("u forgotten while in the old generation")
	}
	a.Add("y", "1") // and again: u is forgotten
	if a.Has("u", "19") || !a.Has("w", "1") || !a.Has("y", "1") {
		t.Fatal("want two generations of two objects")
	}
	var nilA *Answers
	nilA.Add("u", "1")
	if nilA.Has("u", "1") {
		t.Fatal("a nil Answers holds nothing")
	}
}
