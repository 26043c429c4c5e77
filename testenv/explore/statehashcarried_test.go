package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	schedrun "github.com/statuspatch/statuspatch/testenv/explore/internal/run"
	servedapi "github.com/statuspatch/statuspatch/testenv/explore/internal/served"

	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// Two schedules that reach one state by different leader histories hash
// apart: what the informers before the last leader change were served
// (carried) decides which of the new leader's reads need another API
// server, so a schedule pruned as the other's twin could mark a read the
// other would not (issue 73).
func TestStateHashKeepsWhatTheOldLeaderWasServed(t *testing.T) {
	gvk := schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}
	a := book.Key{GVK: gvk, NN: types.NamespacedName{Namespace: "ns", Name: "a"}}
	obj := func(label string) map[string]any {
		return map[string]any{"metadata": map[string]any{"namespace": "ns", "name": "a", "labels": map[string]any{"l": label}}}
	}
	state := func(servedBeforeTheChange int) uint64 {
		r := schedrun.NewScripted(runView{&explorer{o: Options{Versions: 3}}})
		r.Record(a, obj("1"), "1")
		r.Record(a, obj("2"), "2")
		// The old leader's typed informer was served a's first or newest
		// version; then a standby took over, its informers serving nothing
		// yet.
		r.Saw(a, servedapi.TypedRep, servedBeforeTheChange)
		r.LeaderChanged()
		return r.StateHash(2)
	}
	if old, newest := state(0), state(1); old == newest {
		t.Fatalf("the old leader served a's v0 or its v1, and both states hashed %x", old)
	}
}
