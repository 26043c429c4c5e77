package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	schedrun "github.com/statuspatch/statuspatch/testenv/explore/internal/run"

	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// A write based on a version older than another step's write loses that
// write when it overwrites the object; a create after a deletion it did not
// see loses nothing (it succeeds only because the object is gone).
func TestLostWriteOnlyOnOverwrite(t *testing.T) {
	k := book.Key{GVK: schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "StatefulSet"}, NN: types.NamespacedName{Namespace: "ns", Name: "db"}}
	obj := func(replicas int64) map[string]any {
		return map[string]any{"metadata": map[string]any{"name": "db"}, "spec": map[string]any{"replicas": replicas}}
	}
	for _, tc := range []struct {
		name string
		last map[string]any // step 3's write, based on v1 (absent)
		lost bool
	}{
		{"create after an unseen delete", obj(1), false},
		{"update after an unseen write", obj(3), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := schedrun.NewScripted(nil)
			// seen: each step's newest version of k seen (from 0).
			seen := func(based int) map[book.Key]int { return map[book.Key]int{k: based} }
			r.Record(k, nil, "") // v1: absent
			r.Step(item{Rec: 0, Action: -1, Key: k}, "done", seen(0), func() {
				r.Record(k, obj(1), "10") // v2: step 1 creates
			})
			r.Step(item{Rec: 0, Action: -1, Key: k}, "done", seen(1), func() {
				if tc.lost {
					r.Record(k, obj(2), "11") // v3: step 2 updates
				} else {
					r.Record(k, nil, "") // v3: step 2 deletes
				}
			})
			r.Step(item{Rec: 0, Action: -1, Key: k}, "done", seen(0), func() { // saw only v1
				r.Record(k, tc.last, "12")
			})
			if got := r.Failed() != nil && r.Failed().Invariant == InvariantLostWrite; got != tc.lost {
				t.Fatalf("lost write reported: %t, want %t (%+v)", got, tc.lost, r.Failed())
			}
			if tc.lost && !strings.Contains(r.Failed().Message, "spec.replicas written by step 2") {
				t.Errorf("message %q", r.Failed().Message)
			}
		})
	}
}
