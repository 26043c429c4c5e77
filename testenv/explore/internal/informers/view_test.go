package informers

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	servedapi "github.com/statuspatch/statuspatch/testenv/explore/internal/served"

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
	var c View
	c.Saw(a, servedapi.TypedRep, 2)
	c.Saw(g, servedapi.TypedRep, 3)
	c.Start(gvk, servedapi.UnstructuredRep, true) // watched: started with the manager
	if got := c.Lowest(a, servedapi.UnstructuredRep); got != 0 {
		t.Errorf("a watched informer's floor is %d, want 0", got)
	}
	c.Start(gvk, servedapi.MetadataRep, false)
	if got := c.Lowest(a, servedapi.MetadataRep); got != 2 {
		t.Errorf("a lazy informer starts at %d, want 2 (the typed informer served)", got)
	}
	if got := c.Lowest(g, servedapi.MetadataRep); got != 0 {
		t.Errorf("another kind's versions moved the floor to %d", got)
	}
	c.Saw(a, servedapi.TypedRep, 4)
	c.Start(gvk, servedapi.MetadataRep, false) // started: its own floor from now on
	if got := c.Lowest(a, servedapi.MetadataRep); got != 2 {
		t.Errorf("a started informer's floor moved to %d, want 2", got)
	}
	if l := c.Lazy(); len(l) != 1 {
		t.Errorf("lazy informers %v, want one", l)
	}
	c.Reset()
	c.Start(gvk, servedapi.MetadataRep, false)
	if got := c.Lowest(a, servedapi.MetadataRep); got != 0 || len(c.Lazy()) != 1 {
		t.Errorf("after a restart: floor %d, lazy %v", got, c.Lazy())
	}
}
