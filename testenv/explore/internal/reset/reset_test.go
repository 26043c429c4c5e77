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

// The reset leaves what was there before the schedule began and that no
// step wrote (a Namespace the test made before Run, only listed): not one
// of the scenario's Objects (made at the revision the schedule began at),
// nor one made during the schedule by a writer outside the explorer (the
// scenario's invariant), nor one a step wrote, nor one met absent, nor one
// of a kind a write may have stored unseen; nothing without the revision.
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
	bk.Record(object, obj("u3"), "10")  // the scenario's: the schedule began
	bk.Record(outside, obj("u4"), "11") // made by the invariant, read
	bk.Record(child, nil, "")           // met absent, then created by step 1
	h = bk.Record(child, obj("u5"), "13")
	h.By[1] = 1
	bk.Record(absent, nil, "") // met absent only
	keys := func(left []Leftover) []book.Key {
		var out []book.Key
		for _, l := range left {
			out = append(out, l.Key)
		}
		return out
	}
	sure := func(gk schema.GroupKind) (uint64, bool) { return 13, false }
	if got, want := keys(Leftovers(bk, sure, 10)), []book.Key{labelled, object, outside, child, absent}; !reflect.DeepEqual(got, want) {
		t.Errorf("Leftovers = %v, want %v", got, want)
	}
	unsure := func(gk schema.GroupKind) (uint64, bool) { return 13, gk.Kind == "Namespace" }
	all := []book.Key{before, labelled, object, outside, child, absent}
	if got := keys(Leftovers(bk, unsure, 10)); !reflect.DeepEqual(got, all) {
		t.Errorf("a kind a write may have stored unseen: Leftovers = %v, want %v", got, all)
	}
	if got := keys(Leftovers(bk, sure, 0)); !reflect.DeepEqual(got, all) {
		t.Errorf("no revision the schedule began at: Leftovers = %v, want %v", got, all)
	}
}
