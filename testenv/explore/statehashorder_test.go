package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	schedrun "github.com/statuspatch/statuspatch/testenv/explore/internal/run"
	servedapi "github.com/statuspatch/statuspatch/testenv/explore/internal/served"

	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// Two schedules that reach one state, having met its objects (and so its
// informers' floors) in different orders, hash equal: the floors are
// listed by object, sorted, not in the order first met (issue 50).
func TestStateHashIgnoresTheOrderObjectsWereMet(t *testing.T) {
	gvk := schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}
	a := book.Key{GVK: gvk, NN: types.NamespacedName{Namespace: "ns", Name: "a"}}
	b := book.Key{GVK: gvk, NN: types.NamespacedName{Namespace: "ns", Name: "b"}}
	obj := func(name, label string) map[string]any {
		return map[string]any{"metadata": map[string]any{"namespace": "ns", "name": name, "labels": map[string]any{"l": label}}}
	}
	state := func(first, second book.Key) uint64 {
		r := schedrun.NewScripted(runView{&explorer{o: Options{Versions: 3}}})
		r.Record(first, obj(first.NN.Name, "1"), "1")
		r.Record(second, obj(second.NN.Name, "1"), "2")
		r.Record(a, obj("a", "2"), "3") // a has two versions, b one
		// a's typed informer served its newest, b's metadata informer
		// its only one; a crash restart floored a at its newest.
		r.Saw(a, servedapi.TypedRep, 1)
		r.Saw(b, servedapi.MetadataRep, 0)
		r.Floored(a, 1)
		return r.StateHash(2)
	}
	if ab, ba := state(a, b), state(b, a); ab != ba {
		t.Fatalf("the same state hashed %x met a first, %x met b first", ab, ba)
	}
}
