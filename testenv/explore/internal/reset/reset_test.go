package reset

import (
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
)

// What a reset leaves the next schedules: every object but a Namespace is
// gone without a read (a Namespace's finalize may leave it Terminating),
// and each stays so, once, as a carried leftover with no revision of its
// kind, until a book meets it again.
func TestGoneAndStillGone(t *testing.T) {
	widget := schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}
	ns := schema.GroupVersionKind{Version: "v1", Kind: "Namespace"}
	a := book.Key{GVK: widget, NN: types.NamespacedName{Namespace: "ns", Name: "a"}}
	b := book.Key{GVK: widget, NN: types.NamespacedName{Namespace: "ns", Name: "b"}}
	n := book.Key{GVK: ns, NN: types.NamespacedName{Name: "ns"}}
	left := []Leftover{
		{Key: a, RV: "7", KindRV: 9},
		{Key: n, RV: "3", KindRV: 3},
		{Key: b, KindRV: 9, KindUnsure: true},
		{Key: a, Carried: true}, // met again in the list: once
	}
	if got, want := Gone(left), map[book.Key]bool{a: true, b: true}; !reflect.DeepEqual(got, want) {
		t.Errorf("Gone = %v, want %v", got, want)
	}
	want := []Leftover{{Key: a, Carried: true}, {Key: b, Carried: true}}
	if got := StillGone(left); !reflect.DeepEqual(got, want) {
		t.Errorf("StillGone = %+v, want %+v", got, want)
	}
	// One there before the search, restored: neither gone nor carried.
	left = append(left, Leftover{Key: b, RV: "8", KindRV: 9, Start: map[string]any{}})
	if got, want := Gone(left), map[book.Key]bool{a: true}; !reflect.DeepEqual(got, want) {
		t.Errorf("b restored: Gone = %v, want %v", got, want)
	}
	if got, want := StillGone(left), []Leftover{{Key: a, Carried: true}}; !reflect.DeepEqual(got, want) {
		t.Errorf("b restored: StillGone = %+v, want %+v", got, want)
	}
}

// The state hash lists objects by key, whatever the order the book met
// them in, and tells apart two queues, not two orders of one.
func TestHashByKey(t *testing.T) {
	gvk := schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}
	a := book.Key{GVK: gvk, NN: types.NamespacedName{Namespace: "ns", Name: "a"}}
	b := book.Key{GVK: gvk, NN: types.NamespacedName{Namespace: "ns", Name: "b"}}
	obj := func(name string) map[string]any {
		return map[string]any{"metadata": map[string]any{"namespace": "ns", "name": name}}
	}
	hash := func(first, second book.Key, queue ...string) uint64 {
		bk := book.New(nil, nil)
		bk.Record(first, obj(first.NN.Name), "1")
		bk.Record(second, obj(second.NN.Name), "2")
		uids, _ := bk.ServerLabels()
		return Hash(State{Book: bk, UIDs: uids, Keys: SortedKeys(bk.Keys()), Versions: 3, Queue: queue})
	}
	if ab, ba := hash(a, b, "x", "y"), hash(b, a, "y", "x"); ab != ba {
		t.Errorf("one state hashed %x met a first, %x met b first", ab, ba)
	}
	if one, other := hash(a, b, "x"), hash(a, b, "y"); one == other {
		t.Errorf("two queues hashed alike, %x", one)
	}
}

// The reset leaves what was there before the search began and that no
// step wrote (a Namespace the test made before Run, only listed), and
// restores to its first version one a step wrote: not one of the
// scenario's Objects (made at the revision the search began at), nor one
// made during the schedule by a writer outside the explorer (the
// scenario's invariant), nor one met absent, which it deletes. One of a
// kind a write may have stored unseen it restores too (as the server
// holds it); without the revision, it deletes every object.
func TestLeftoversKeepUntouched(t *testing.T) {
	cm := schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}
	ns := schema.GroupVersionKind{Version: "v1", Kind: "Namespace"}
	key := func(gvk schema.GroupVersionKind, name string) book.Key {
		return book.Key{GVK: gvk, NN: types.NamespacedName{Name: name}}
	}
	obj := func(uid string) map[string]any {
		return map[string]any{"metadata": map[string]any{"name": "x", "uid": uid}}
	}
	before, labelled, object, outside, child, absent := key(ns, "team-a"), key(ns, "team-b"), key(cm, "source"), key(cm, "outside"), key(cm, "target"), key(cm, "gone")
	bk := book.New(nil, nil)
	bk.Record(before, obj("u1"), "3")   // read, present, older than the schedule
	bk.Record(labelled, obj("u2"), "4") // read, then written by step 2
	h := bk.Record(labelled, map[string]any{"metadata": map[string]any{"name": "x", "uid": "u2", "labels": map[string]any{"a": "b"}}}, "12")
	h.By[1] = 2
	bk.Record(object, obj("u3"), "10")  // the scenario's: the search began
	bk.Record(outside, obj("u4"), "11") // made by the invariant, read
	bk.Record(child, nil, "")           // met absent, then created by step 1
	h = bk.Record(child, obj("u5"), "13")
	h.By[1] = 1
	bk.Record(absent, nil, "") // met absent only
	keys := func(left []Leftover) (out []book.Key, restored []book.Key) {
		for _, l := range left {
			out = append(out, l.Key)
			if l.Start != nil {
				restored = append(restored, l.Key)
			}
		}
		return out, restored
	}
	sure := func(gk schema.GroupKind) (uint64, bool) { return 13, false }
	b := &Before{Began: 10}
	got, restored := keys(Leftovers(bk, sure, b))
	if want := []book.Key{labelled, object, outside, child, absent}; !reflect.DeepEqual(got, want) || !reflect.DeepEqual(restored, []book.Key{labelled}) {
		t.Errorf("Leftovers = %v, restoring %v; want %v, restoring %v", got, restored, want, labelled)
	}
	if want := map[book.Key]map[string]any{before: obj("u1"), labelled: obj("u2")}; !reflect.DeepEqual(b.Start, want) {
		t.Errorf("Start = %v, want %v", b.Start, want)
	}
	unsure := func(gk schema.GroupKind) (uint64, bool) { return 13, gk.Kind == "Namespace" }
	all := []book.Key{before, labelled, object, outside, child, absent}
	got, restored = keys(Leftovers(bk, unsure, &Before{Began: 10}))
	if !reflect.DeepEqual(got, all) || !reflect.DeepEqual(restored, []book.Key{before, labelled}) {
		t.Errorf("a kind a write may have stored unseen: Leftovers = %v, restoring %v; want %v, restoring %v", got, restored, all, []book.Key{before, labelled})
	}
	got, restored = keys(Leftovers(bk, sure, &Before{}))
	if !reflect.DeepEqual(got, all) || restored != nil {
		t.Errorf("no revision the search began at: Leftovers = %v, restoring %v; want %v, restoring none", got, restored, all)
	}

	// The next schedule meets labelled as the reset restored it (another
	// UID and resourceVersion, the first content) and only reads it: it
	// stays. The one after deletes it: it is restored to the first
	// version of the first schedule's book.
	next := book.New(nil, nil)
	next.Record(labelled, obj("u9"), "20")
	if got, _ := keys(Leftovers(next, sure, b)); got != nil {
		t.Errorf("restored and only read: Leftovers = %v, want none", got)
	}
	third := book.New(nil, nil)
	third.Record(labelled, obj("u9"), "20")
	h = third.Record(labelled, nil, "")
	h.By[1] = 1
	left := Leftovers(third, sure, b)
	if len(left) != 1 || !reflect.DeepEqual(left[0].Start, obj("u2")) {
		t.Errorf("restored, then deleted by a step: Leftovers = %+v, want labelled restored to %v", left, obj("u2"))
	}
}

// A restore that did not make the start names the first field that
// differs, with both values.
func TestDiffers(t *testing.T) {
	got := map[string]any{"metadata": map[string]any{"generation": int64(1), "name": "s"}, "spec": map[string]any{"size": int64(3)}}
	want := map[string]any{"metadata": map[string]any{"generation": int64(2), "name": "s"}, "spec": map[string]any{"size": int64(3)}}
	if d, w := differs(got, want, ""), "metadata.generation is 1, the search began with 2"; d != w {
		t.Errorf("differs = %q, want %q", d, w)
	}
	if d := differs(got, got, ""); d != "" {
		t.Errorf("differs of one object = %q, want none", d)
	}
}
