package explore_test

import (
	"context"
	"strconv"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// countScenario: a reconciler of Gizmos counts the Gizmos labelled dl=1
// into the annotation count of Widget dl-sum (derived: computed from the
// list only) or appends the count to its annotation seen (computed from
// the list and the sum it read), by a blind MergeFrom patch of the sum it
// read from the cache; the action labels Gizmo dl-a.
func countScenario(appendSeen bool) explore.Scenario {
	const ns = "ns"
	return blindScenario("count", &testv1.Gizmo{}, types.NamespacedName{Namespace: ns, Name: "dl-sum"},
		func(ctx context.Context, c client.Client, sum *testv1.Widget) (bool, error) {
			list := &testv1.GizmoList{}
			if err := c.List(ctx, list, client.InNamespace(ns), client.MatchingLabels{"dl": "1"}); err != nil {
				return false, err
			}
			n := strconv.Itoa(len(list.Items))
			key, val := "count", n
			if appendSeen {
				seen := sum.Annotations["seen"]
				if seen != "" && seen[len(seen)-1:] == n {
					return false, nil
				}
				key, val = "seen", seen+n
			}
			if sum.Annotations[key] == val {
				return false, nil
			}
			sum.Annotations = map[string]string{key: val}
			return true, nil
		},
		[]client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "dl-sum"}},
			&testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "dl-a"}}},
		explore.Action{Name: "label-a", Run: func(ctx context.Context, c client.Client) error {
			return c.Patch(ctx, &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "dl-a"}},
				client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"labels":{"dl":"1"}}}`)))
		}})
}

// TestLostWriteJudgedByTheFreshSchedule: a reconciler writes count 0;
// the user labels a Gizmo; the next reconcile, in the same process,
// reads its own object stale (its write not yet in the cache) and the
// list fresh, and writes count 1. The field is derived from the list
// only, and the same schedule with every read fresh writes count 1 at
// that step: nothing is lost, no violation (the ElasticQuota false alarm,
// examples/realops2). The same stale read by a reconciler that appends to
// what it read (seen "0" then "1", where the fresh schedule writes "01")
// loses step 1's write, and is still reported.
func TestLostWriteJudgedByTheFreshSchedule(t *testing.T) {
	replayLostCases(t, countScenario, "count:ns/dl-a@0,0 !label-a count:ns/dl-a@1,0",
		lostCase{"derived field recomputed", false, ""},
		lostCase{"append to a stale own write", true, "metadata.annotations.seen written by step 1"})
}
