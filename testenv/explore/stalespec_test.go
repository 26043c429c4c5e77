package explore_test

import (
	"context"
	"strconv"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// createFirstScenario is machine-api-operator's MachineSet order: a
// reconcile of Widget ms lists its Gizmos, creates every one missing
// below spec.size, then writes the count it listed before them into
// status.counters.replicas by a blind MergeFrom patch of its cached read.
// The action scale-up sets spec.size from 2 to 3.
func createFirstScenario() explore.Scenario {
	const ns = "cf"
	msKey := types.NamespacedName{Namespace: ns, Name: "ms"}
	newRec := func(c client.Client, _ client.Reader) reconcile.Reconciler {
		return reconcile.Func(func(ctx context.Context, _ reconcile.Request) (reconcile.Result, error) {
			ms, list := &testv1.Widget{}, &testv1.GizmoList{}
			if err := c.Get(ctx, msKey, ms); err != nil {
				return reconcile.Result{}, client.IgnoreNotFound(err)
			}
			if err := c.List(ctx, list, client.InNamespace(ns)); err != nil {
				return reconcile.Result{}, err
			}
			n := len(list.Items)
			for i := n; i < int(ms.Spec.Size); i++ {
				g := &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "ms-" + strconv.Itoa(i)}}
				if err := c.Create(ctx, g); client.IgnoreAlreadyExists(err) != nil {
					return reconcile.Result{}, err
				}
			}
			old := ms.DeepCopy()
			ms.Status.Counters = map[string]int64{"replicas": int64(n)}
			return reconcile.Result{}, c.Status().Patch(ctx, ms, client.MergeFrom(old))
		})
	}
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "ms", For: &testv1.Widget{}, New: newRec}},
		Objects:     []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "ms"}, Spec: testv1.WidgetSpec{Size: 2}}},
		Actions: []explore.Action{{Name: "scale-up", Run: func(ctx context.Context, c client.Client) error {
			return c.Patch(ctx, &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "ms"}},
				client.RawPatch(types.MergePatchType, []byte(`{"spec":{"size":3}}`)))
		}}},
	}
}

// TestLostWriteJudgedWithAnEarlierStaleRead: the first reconcile
// creates one Gizmo and crashes; the user scales to 3; the restarted
// process reads the Widget before the scale-up, creates the second
// Gizmo and writes the 1 it listed; the next reconcile, on the same
// stale Widget, writes the true 2 over it. Replayed with every read
// fresh, step 3 creates two Gizmos and step 4 counts three: no match,
// and the lost write stood (machine-api-operator's status.replicas,
// examples/realops3 machineSetStaleScaleSeed). Judged with step 3's
// stale read kept and only step 4's reads fresh, step 4 writes 2 too:
// nothing lost.
func TestLostWriteJudgedWithAnEarlierStaleRead(t *testing.T) {
	const replay = "ms:cf/ms@0,0#1 !scale-up ms:cf/ms@1,0 ms:cf/ms@2,0"
	res, err := explore.Run(t.Context(), createFirstScenario(), explore.Options{Backend: explore.Server(server(t)), Replay: replay, Versions: 8})
	if err != nil {
		t.Fatal(err)
	}
	if res.Diverged != "" {
		t.Fatalf("replay diverged: %s", res.Diverged)
	}
	if v := res.Violation; v != nil && v.Broke(explore.InvariantLostWrite) {
		t.Fatalf("the true count written after stale reads reported lost:\n%v", v)
	}
}
