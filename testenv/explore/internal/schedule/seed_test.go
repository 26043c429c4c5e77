package schedule

import (
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
)

// names is a scenario of one reconciler, "summary", of Widgets.
type names struct{}

func (names) ReconcilerName(int) string        { return "summary" }
func (names) ActionName(int) string            { return "add" }
func (names) Kind(int) schema.GroupVersionKind { return schema.GroupVersionKind{Kind: "Widget"} }
func (names) Reconciler(n string) int          { return map[bool]int{true: 0, false: -1}[n == "summary"] }
func (names) Action(n string) int              { return map[bool]int{true: 0, false: -1}[n == "add"] }

// The delivery of a pushed event is named by its reconciler, its channel
// past the first, and its object ("-": not an object); it has no lags and
// no crash, and a seed reads back what it wrote.
func TestSeedPushed(t *testing.T) {
	script := []Chosen{
		{It: Item{Rec: -1, Action: 0}},
		{It: Item{Rec: 0, Action: -1, Pushed: 1, Key: book.Key{NN: types.NamespacedName{Namespace: "ns", Name: "s"}}}},
		{It: Item{Rec: 0, Action: -1, Pushed: 2, Key: book.Key{NN: types.NamespacedName{Name: "cluster"}}}},
		{It: Item{Rec: 0, Action: -1, Pushed: 1}},
	}
	seed := Format(names{}, script)
	if want := "!add ^summary:ns/s ^2:summary:cluster ^summary:-"; seed != want {
		t.Fatalf("seed %q, want %q", seed, want)
	}
	back, err := Parse(names{}, seed)
	if err != nil {
		t.Fatal(err)
	}
	for i := range back {
		back[i].Lags = nil
	}
	if !reflect.DeepEqual(back, script) {
		t.Fatalf("parsed %+v, want %+v", back, script)
	}
	for _, bad := range []string{"^summary:ns/s@0", "^summary:ns/s#1", "^other:ns/s", "^0:summary:ns/s", "^summary"} {
		if _, err := Parse(names{}, bad); err == nil || !strings.Contains(err.Error(), "^reconciler:namespace/name") {
			t.Errorf("%q: got %v, want it refused", bad, err)
		}
	}
}
