package explore

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// A write based on a version older than another step's write loses that
// write when it overwrites the object; a create after a deletion it did not
// see loses nothing (it succeeds only because the object is gone).
func TestLostWriteOnlyOnOverwrite(t *testing.T) {
	k := objKey{gvk: schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "StatefulSet"}, nn: types.NamespacedName{Namespace: "ns", Name: "db"}}
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
			r := &run{hist: map[objKey]*history{}}
			at := func(step, based int) {
				r.cur = &stepState{step: Step{Index: step}, seen: map[objKey]int{}}
				if based >= 0 {
					r.cur.seen[k] = based
				}
			}
			r.record(k, nil, "") // v1: absent
			at(1, 0)
			r.record(k, obj(1), "10") // v2: step 1 creates
			at(2, 1)
			if tc.lost {
				r.record(k, obj(2), "11") // v3: step 2 updates
			} else {
				r.record(k, nil, "") // v3: step 2 deletes
			}
			at(3, 0) // saw only v1
			r.record(k, tc.last, "12")
			if got := r.failed != nil && r.failed.Invariant == InvariantLostWrite; got != tc.lost {
				t.Fatalf("lost write reported: %t, want %t (%+v)", got, tc.lost, r.failed)
			}
			if tc.lost && !strings.Contains(r.failed.Message, "spec.replicas written by step 2") {
				t.Errorf("message %q", r.failed.Message)
			}
		})
	}
}
