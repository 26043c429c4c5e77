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
