package explore_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// conditionsScenario: a reconciler of Gizmos sets Widget mc-sum's
// conditions Labelled (whether Gizmo mc-a is labelled mc=1) and Seen
// (always true) with meta.SetStatusCondition, by a blind MergeFrom
// patch of status from the Widget it read: a new condition goes last, an
// unchanged one keeps its place and time. Seen is set first, but for a
// labelled Gizmo and a Widget without conditions: so after the label, a
// reconcile that reads the Widget before its first write sends
// [Labelled, Seen], one that reads it after, [Seen, Labelled]: the same
// conditions in another order, which the Widget CRD keys by type.
// Its clock counts its reconciles (retime) or stands still.
func conditionsScenario(retime bool) explore.Scenario {
	const ns = "ns"
	sumKey := types.NamespacedName{Namespace: ns, Name: "mc-sum"}
	newRec := func(c client.Client, _ client.Reader) reconcile.Reconciler {
		tick := 0
		return reconcile.Func(func(ctx context.Context, _ reconcile.Request) (reconcile.Result, error) {
			sum := &testv1.Widget{}
			if err := c.Get(ctx, sumKey, sum); err != nil {
				return reconcile.Result{}, client.IgnoreNotFound(err)
			}
			g := &testv1.Gizmo{}
			if err := c.Get(ctx, types.NamespacedName{Namespace: ns, Name: "mc-a"}, g); err != nil {
				return reconcile.Result{}, client.IgnoreNotFound(err)
			}
			if retime {
				tick++
			}
			now := metav1.NewTime(time.Date(2026, 11, 29, 8, 0, tick, 0, time.UTC))
			old := sum.DeepCopy()
			labelled := metav1.ConditionFalse
			if g.Labels["mc"] == "1" {
				labelled = metav1.ConditionTrue
			}
			conds := &sum.Status.Conditions
			if len(*conds) == 0 && labelled == metav1.ConditionTrue {
				// Nothing read, and labelled: Labelled first.
				meta.SetStatusCondition(conds, metav1.Condition{Type: "Labelled", Status: labelled, Reason: "Read", LastTransitionTime: now})
			}
			meta.SetStatusCondition(conds, metav1.Condition{Type: "Seen", Status: metav1.ConditionTrue, Reason: "Read", LastTransitionTime: now})
			meta.SetStatusCondition(conds, metav1.Condition{Type: "Labelled", Status: labelled, Reason: "Read", LastTransitionTime: now})
			return reconcile.Result{}, c.Status().Patch(ctx, sum, client.MergeFrom(old))
		})
	}
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "cond", For: &testv1.Gizmo{}, New: newRec}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "mc-sum"}},
			&testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "mc-a"}}},
		Actions: []explore.Action{{Name: "label-a", Run: func(ctx context.Context, c client.Client) error {
			return c.Patch(ctx, &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "mc-a"}},
				client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"labels":{"mc":"1"}}}`)))
		}}},
	}
}

// TestLostWriteMapListByKeys: the reconciler writes [Seen, Labelled
// false]; the user labels the Gizmo; the next reconcile reads the Widget
// stale (before that write) and sends [Labelled true, Seen], where a
// fresh read sends [Seen, Labelled true]. The CRD keys status.conditions
// by type: the same conditions, nothing lost, no violation. With a clock
// that moves, the stale write also sets Seen's time anew, where the
// fresh one keeps step 1's: a loss of times only, ranked last, saying so,
// its write still its cause.
func TestLostWriteMapListByKeys(t *testing.T) {
	const replay = "cond:ns/mc-a@0,0 !label-a cond:ns/mc-a@1,0"
	for _, tc := range []struct {
		name   string
		retime bool
	}{{"same times", false}, {"times moved", true}} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := explore.Run(t.Context(), conditionsScenario(tc.retime), explore.Options{Backend: explore.Server(server(t)), Replay: replay})
			if err != nil {
				t.Fatal(err)
			}
			if res.Diverged != "" {
				t.Fatalf("replay diverged: %s", res.Diverged)
			}
			v := res.Violation
			if !tc.retime {
				if v != nil {
					t.Fatalf("the same conditions in another order reported:\n%v", v)
				}
				return
			}
			if v == nil || !v.Broke(explore.InvariantLostWrite) || !strings.Contains(v.Message, "status.conditions") ||
				!strings.Contains(v.Message, "but for time-like fields") {
				t.Fatalf("want a time-only lost write of status.conditions, got:\n%v", v)
			}
			if v.Cause == nil || !strings.Contains(v.RankReason, "time-like") {
				t.Fatalf("want the write kept as its cause and ranked time-only, got cause %v, rank %d (%s)", v.Cause, v.Rank, v.RankReason)
			}
			t.Logf("rank %d (%s): %s", v.Rank, v.RankReason, v.Message)
		})
	}
}
