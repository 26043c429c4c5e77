package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// An informer no controller watches starts at its first read at what the
// kind's other informers have served of each object; one a controller
// watches (started with the manager) and one already started keep their
// own floors; a new process's start again.
func TestLazyInformerStart(t *testing.T) {
	gvk := schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}
	other := schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Gizmo"}
	a := book.Key{GVK: gvk, NN: types.NamespacedName{Namespace: "ns", Name: "a"}}
	g := book.Key{GVK: other, NN: types.NamespacedName{Namespace: "ns", Name: "a"}}
	var c cacheView
	c.saw(a, typedRep, 2)
	c.saw(g, typedRep, 3)
	c.start(gvk, unstructuredRep, true) // watched: started with the manager
	if got := c.lowest(a, unstructuredRep); got != 0 {
		t.Errorf("a watched informer's floor is %d, want 0", got)
	}
	c.start(gvk, metadataRep, false)
	if got := c.lowest(a, metadataRep); got != 2 {
		t.Errorf("a lazy informer starts at %d, want 2 (the typed informer served)", got)
	}
	if got := c.lowest(g, metadataRep); got != 0 {
		t.Errorf("another kind's versions moved the floor to %d", got)
	}
	c.saw(a, typedRep, 4)
	c.start(gvk, metadataRep, false) // started: its own floor from now on
	if got := c.lowest(a, metadataRep); got != 2 {
		t.Errorf("a started informer's floor moved to %d, want 2", got)
	}
	if l := c.lazy(); len(l) != 1 {
		t.Errorf("lazy informers %v, want one", l)
	}
	c.reset()
	c.start(gvk, metadataRep, false)
	if got := c.lowest(a, metadataRep); got != 0 || len(c.lazy()) != 1 {
		t.Errorf("after a restart: floor %d, lazy %v", got, c.lazy())
	}
}
