package explore_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

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
	sumKey := types.NamespacedName{Namespace: ns, Name: "dl-sum"}
	newRec := func(c client.Client, _ client.Reader) reconcile.Reconciler {
		return reconcile.Func(func(ctx context.Context, _ reconcile.Request) (reconcile.Result, error) {
			sum := &testv1.Widget{}
			if err := c.Get(ctx, sumKey, sum); err != nil {
				return reconcile.Result{}, client.IgnoreNotFound(err)
			}
			list := &testv1.GizmoList{}
			if err := c.List(ctx, list, client.InNamespace(ns), client.MatchingLabels{"dl": "1"}); err != nil {
				return reconcile.Result{}, err
			}
			n := strconv.Itoa(len(list.Items))
			key, val := "count", n
			if appendSeen {
				seen := sum.Annotations["seen"]
				if seen != "" && seen[len(seen)-1:] == n {
					return reconcile.Result{}, nil
				}
				key, val = "seen", seen+n
			}
			if sum.Annotations[key] == val {
				return reconcile.Result{}, nil
			}
			old := sum.DeepCopy()
			sum.Annotations = map[string]string{key: val}
			return reconcile.Result{}, c.Patch(ctx, sum, client.MergeFrom(old))
		})
	}
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "count", For: &testv1.Gizmo{}, New: newRec}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "dl-sum"}},
			&testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "dl-a"}}},
		Actions: []explore.Action{{Name: "label-a", Run: func(ctx context.Context, c client.Client) error {
			return c.Patch(ctx, &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "dl-a"}},
				client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"labels":{"dl":"1"}}}`)))
		}}},
	}
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
	const replay = "count:ns/dl-a@0,0 !label-a count:ns/dl-a@1,0"
	for _, tc := range []struct {
		name       string
		appendSeen bool
		lost       string // the lost field; "" none
	}{
		{"derived field recomputed", false, ""},
		{"append to a stale own write", true, "metadata.annotations.seen written by step 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			replayLost(t, countScenario(tc.appendSeen), explore.Options{Replay: replay}, tc.lost)
		})
	}
}

// replayLost replays o.Replay of s on the test server (o's Backend when
// nil), twice without diverging, and wants a lost write whose report
// says lost, or, for "", no violation.
func replayLost(t *testing.T, s explore.Scenario, o explore.Options, lost string) {
	t.Helper()
	if o.Backend == nil {
		o.Backend = explore.Server(server(t))
	}
	res, err := explore.Run(t.Context(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Diverged != "" {
		t.Fatalf("replay diverged: %s", res.Diverged)
	}
	v := res.Violation
	if lost == "" {
		if v != nil {
			t.Fatalf("want no violation, got:\n%v", v)
		}
		return
	}
	if v == nil || !v.Broke(explore.InvariantLostWrite) || !strings.Contains(v.String(), lost) {
		t.Fatalf("want a lost write of %q, got:\n%v", lost, v)
	}
}
