package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	schedrun "github.com/statuspatch/statuspatch/testenv/explore/internal/run"
	servedapi "github.com/statuspatch/statuspatch/testenv/explore/internal/served"

	"testing"

	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// Two schedules that reach one state, one having started the second
// cache's Gizmo informer and the other not, hash apart: an informer
// started in a step lists the newest versions, the step's own writes
// included, one started before serves the step's start, so the schedule
// pruned as the other's twin could read what the other does not. The
// order the informers started in is not part of the state.
func TestStateHashKeepsTheSecondCacheInformersStarted(t *testing.T) {
	widget := schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}
	gizmo := schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Gizmo"}
	a := book.Key{GVK: widget, NN: types.NamespacedName{Namespace: "ns", Name: "a"}}
	sel := labels.SelectorFromSet(labels.Set{"target": "true"})
	informer := func(gvk schema.GroupVersionKind, rep servedapi.Rep, l labels.Selector) servedapi.Request {
		return servedapi.Request{GVK: gvk, NS: "ns", Rep: rep, Labels: l, Fields: fields.Everything()}
	}
	state := func(started ...servedapi.Request) uint64 {
		r := schedrun.NewScripted(runView{&explorer{o: Options{Versions: 3}}})
		r.Record(a, map[string]any{"metadata": map[string]any{"namespace": "ns", "name": "a"}}, "1")
		for _, q := range started {
			r.Started(q)
		}
		return r.StateHash(2)
	}
	w := informer(widget, servedapi.MetadataRep, sel)
	g := informer(gizmo, servedapi.TypedRep, sel)
	if one, both := state(w), state(w, g); one == both {
		t.Fatalf("the Gizmo informer started or not, both states hashed %x", one)
	}
	if typed := state(informer(widget, servedapi.TypedRep, sel)); typed == state(w) {
		t.Fatalf("a typed or a metadata-only Widget informer, both states hashed %x", typed)
	}
	if all := state(informer(widget, servedapi.MetadataRep, labels.Everything())); all == state(w) {
		t.Fatalf("a label-selected or an unselected Widget informer, both states hashed %x", all)
	}
	if wg, gw := state(w, g), state(g, w); wg != gw {
		t.Fatalf("the same informers hashed %x started Widget first, %x Gizmo first", wg, gw)
	}
	if again := state(w, w); again != state(w) {
		t.Fatalf("an informer listed again (a relist) hashed %x, once %x", again, state(w))
	}
}
