package explore_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// replicaSetScenario is machine-api-operator's MachineSet controller in
// small: a reconcile of Widget ms reads it and lists its Gizmos, writes
// the count it listed into status (counters.replicas, by a blind
// MergeFrom patch of what it read; with appendSeen it appends the count
// to status.items instead, building on what it read) with the
// generation it reads from the API reader, then creates one
// Gizmo if fewer than spec.size. With scale, the action scale-up sets
// spec.size to 3.
func replicaSetScenario(appendSeen, scale bool) explore.Scenario {
	const ns = "rs"
	msKey := types.NamespacedName{Namespace: ns, Name: "ms"}
	newRec := func(c client.Client, api client.Reader) reconcile.Reconciler {
		return reconcile.Func(func(ctx context.Context, _ reconcile.Request) (reconcile.Result, error) {
			ms := &testv1.Widget{}
			if err := c.Get(ctx, msKey, ms); err != nil {
				return reconcile.Result{}, client.IgnoreNotFound(err)
			}
			list := &testv1.GizmoList{}
			if err := c.List(ctx, list, client.InNamespace(ns)); err != nil {
				return reconcile.Result{}, err
			}
			n := len(list.Items)
			old := ms.DeepCopy()
			cur := &testv1.Widget{}
			if err := api.Get(ctx, msKey, cur); err != nil {
				return reconcile.Result{}, err
			}
			ms.Status.ObservedGeneration = cur.Generation
			if appendSeen {
				if k := len(ms.Status.Items); k == 0 || ms.Status.Items[k-1] != strconv.Itoa(n) {
					ms.Status.Items = append(ms.Status.Items, strconv.Itoa(n))
				}
			} else if v, ok := ms.Status.Counters["replicas"]; !ok || v != int64(n) {
				ms.Status.Counters = map[string]int64{"replicas": int64(n)}
			}
			if err := c.Status().Patch(ctx, ms, client.MergeFrom(old)); err != nil {
				return reconcile.Result{}, err
			}
			if n >= int(ms.Spec.Size) {
				return reconcile.Result{}, nil
			}
			g := &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "ms-" + strconv.Itoa(n),
				OwnerReferences: []metav1.OwnerReference{{APIVersion: testv1.GroupVersion.String(), Kind: "Widget",
					Name: ms.Name, UID: ms.UID, Controller: ptr.To(true)}}}}
			return reconcile.Result{}, client.IgnoreAlreadyExists(c.Create(ctx, g))
		})
	}
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "ms", For: &testv1.Widget{}, Owns: []client.Object{&testv1.Gizmo{}}, New: newRec}},
		Objects:     []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "ms"}, Spec: testv1.WidgetSpec{Size: 2}}},
	}
	if scale {
		s.Actions = []explore.Action{{Name: "scale-up", Run: func(ctx context.Context, c client.Client) error {
			return c.Patch(ctx, &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "ms"}},
				client.RawPatch(types.MergePatchType, []byte(`{"spec":{"size":3}}`)))
		}}}
	}
	return s
}

// TestLostWriteJudgedWithTheSameCrash: the first reconcile writes
// replicas 0 and crashes before it creates the first Gizmo; the
// restarted process creates it (replicas already 0), then writes 1 and
// creates the second; the next reconcile reads its Widget stale (replicas
// 0) and the Gizmos fresh, and writes 2, the true count, over the 1. The
// same schedule with fresh reads and the same crash writes 2 there too:
// nothing is lost. Judged without the crash (main before this), the
// fresh schedule had created both Gizmos a step earlier and wrote
// nothing at that step, and the lost write stood: machine-api-operator's
// status.replicas false alarm (examples/realops3). The same shape that
// appends the count to what it read (items 0,1 overwritten by 0,2, where
// fresh reads give 0,1,2) still loses step 3's write.
func TestLostWriteJudgedWithTheSameCrash(t *testing.T) {
	const replay = "ms:rs/ms@0,0#1 ms:rs/ms@0,0 ms:rs/ms@0,0 ms:rs/ms@1,0"
	for _, tc := range []struct {
		name       string
		appendSeen bool
		lost       string // the lost write reported; "" none
	}{
		{"derived count", false, ""},
		{"appended count", true, "status.items written by step 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := explore.Run(t.Context(), replicaSetScenario(tc.appendSeen, true),
				explore.Options{Backend: explore.Server(server(t)), Crashes: 1, Replay: replay})
			if err != nil {
				t.Fatal(err)
			}
			if res.Diverged != "" {
				t.Fatalf("replay diverged: %s", res.Diverged)
			}
			v := res.Violation
			if tc.lost == "" {
				if v != nil {
					t.Fatalf("the true count written after a stale read of its own write reported:\n%v", v)
				}
				return
			}
			if v == nil || !v.Broke(explore.InvariantLostWrite) || !strings.Contains(v.String(), tc.lost) {
				t.Fatalf("want a lost write of %q, got:\n%v", tc.lost, v)
			}
		})
	}
}

// TestDerivedCountNeverLostUnderFaults is an oracle over seeded random
// schedules with crashes, leader changes (the standby's cache lagging)
// and stale reads of the Widget, and a scale-up: the Gizmos listed from
// the server, the count each reconcile writes is the true one when it
// writes it, so no schedule loses a write of it, however the faults
// fall. A judgement that replays a schedule without its faults (a crash,
// an earlier step's stale read of the spec) compares steps that no
// longer match, and reports one.
func TestDerivedCountNeverLostUnderFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("a random search")
	}
	for _, seed := range []int64{1, 2} {
		res, err := explore.Run(t.Context(), replicaSetScenario(false, true), explore.Options{Backend: explore.Server(server(t)),
			Seed: seed, Schedules: 30, Depth: 6, Crashes: 2, LeaderChange: true, Uncached: []client.Object{&testv1.Gizmo{}},
			Budget: searchBound, Quiet: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range res.Violations {
			if v.Broke(explore.InvariantLostWrite) {
				t.Errorf("seed %d: the true count reported lost:\n%v", seed, v)
			}
		}
	}
}
