package informers

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	servedapi "github.com/statuspatch/statuspatch/testenv/explore/internal/served"
)

// planTrace is a step (index 1) whose cached reads are served at lag,
// or the oldest there is.
type planTrace struct {
	lag     int
	windows []Window
}

func (p *planTrace) Step() (int, string)           { return 1, "r" }
func (p *planTrace) Drain() bool                   { return false }
func (p *planTrace) Planned(n int) (int, bool)     { return min(p.lag, n-1), true }
func (p *planTrace) NoteLag(int)                   {}
func (p *planTrace) Served(string, int, int)       {}
func (p *planTrace) Choose(int) int                { return 0 }
func (p *planTrace) FaultLag(int) (int, bool)      { return 0, false }
func (p *planTrace) FaultInWindow(int) (int, bool) { return 0, false }
func (p *planTrace) Cut(Bound)                     {}
func (p *planTrace) Windows(int) *[]Window         { return &p.windows }
func (p *planTrace) Read(Read)                     {}
func (p *planTrace) Saw(book.Key, int)             {}
func (p *planTrace) Held(Read)                     {}

type watchedSetup struct{}

func (watchedSetup) Bounds() (int, int)                                    { return 4, 2 }
func (watchedSetup) Spans() bool                                           { return false }
func (watchedSetup) Uncached(schema.GroupVersionKind, runtime.Object) bool { return false }
func (watchedSetup) Watched(schema.GroupVersionKind, servedapi.Rep) bool   { return true }

var gizmo = schema.GroupVersionKind{Group: "test.statuspatch.dev", Version: "v1", Kind: "Gizmo"}

// storeBook: Gizmo b, met at resourceVersion 5; Gizmo a created at 10,
// then updated at 12.
func storeBook() (*book.Book, book.Key, book.Key) {
	b := book.New(nil, nil)
	ka := book.Key{GVK: gizmo, NN: types.NamespacedName{Namespace: "ns", Name: "a"}}
	kb := book.Key{GVK: gizmo, NN: types.NamespacedName{Namespace: "ns", Name: "b"}}
	obj := func(name, gen string) map[string]any {
		return map[string]any{"metadata": map[string]any{"name": name, "namespace": "ns", "labels": map[string]any{"gen": gen}}}
	}
	b.Record(kb, obj("b", "1"), "5")
	b.Record(ka, nil, "")
	b.Record(ka, obj("a", "1"), "10")
	b.Record(ka, obj("a", "2"), "12")
	return b, ka, kb
}

// The store reports the newest resourceVersion the book recorded of the
// kind up to the point chosen, and the informer has then served each
// object at its version there: a later read through it is no older, and
// a later store read no further behind.
func TestStoreSyncedAtThePointChosen(t *testing.T) {
	for _, c := range []struct {
		lag      int
		want     string
		lowestA  int // the oldest version of a the informer may serve after
		again    string
		windowed bool
	}{
		{lag: 0, want: "12", lowestA: 2, again: "12"},
		{lag: 1, want: "10", lowestA: 1, again: "10", windowed: true},
		{lag: 2, want: "5", lowestA: 0, again: "5", windowed: true},
	} {
		b, ka, _ := storeBook()
		tr := &planTrace{lag: c.lag}
		cache := Cache{Model: Model{Book: b, Floor: map[book.Key]int{}}, Trace: tr, Setup: watchedSetup{}}
		obj := &unstructured.Unstructured{}
		obj.SetGroupVersionKind(gizmo)
		got, behind, err := cache.StoreSynced(gizmo, obj)
		if err != nil || got != c.want || behind != (c.lag > 0) {
			t.Fatalf("lag %d: StoreSynced = %q, behind %t, %v; want %q, behind %t", c.lag, got, behind, err, c.want, c.lag > 0)
		}
		inf := Key{GVK: gizmo, Rep: servedapi.UnstructuredRep}
		if low := cache.Model.Lowest(ka, inf); low != c.lowestA {
			t.Errorf("lag %d: the informer may serve a from v%d, want v%d", c.lag, low, c.lowestA)
		}
		if opened := len(tr.windows) > 0; opened != c.windowed {
			t.Errorf("lag %d: a stale window opened: %t, want %t", c.lag, opened, c.windowed)
		}
		tr.lag = 3 // the stalest there is: no older than what it served
		if again, _, err := cache.StoreSynced(gizmo, obj); err != nil || again != c.again {
			t.Errorf("lag %d: the store read again at the stalest = %q, %v; want %q", c.lag, again, err, c.again)
		}
	}
}

// A resourceVersion that is not a number cannot be ordered: the store
// says so instead of guessing.
func TestStoreSyncedNeedsNumbers(t *testing.T) {
	b, ka, _ := storeBook()
	b.Record(ka, map[string]any{"metadata": map[string]any{"name": "a", "namespace": "ns"}}, "x7")
	cache := Cache{Model: Model{Book: b, Floor: map[book.Key]int{}}, Trace: &planTrace{}, Setup: watchedSetup{}}
	obj := &unstructured.Unstructured{}
	obj.SetGroupVersionKind(gizmo)
	if _, _, err := cache.StoreSynced(gizmo, obj); err == nil || !strings.Contains(err.Error(), `"x7" is not a number`) {
		t.Fatalf("want an error naming the resourceVersion, got %v", err)
	}
}
