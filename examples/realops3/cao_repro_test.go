package realops3

import (
	"context"
	"strings"
	"testing"

	machinev1beta1 "github.com/openshift/api/machine/v1beta1"
	cao "github.com/openshift/cluster-autoscaler-operator/pkg/apis/autoscaling/v1beta1"
	"github.com/openshift/cluster-autoscaler-operator/pkg/controller/machineautoscaler"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/record"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// TestCAODeleteAfterRetargetLeavesOldTarget plays, on the real server and
// without the explorer, what the default search reported on its first
// schedule (examples/realops/README.md, cluster-autoscaler-operator):
// a MachineAutoscaler of MachineSet a, reconciled; the user retargets it
// to b and deletes it before the controller sees the retarget (a burst of
// edits, or while the operator is down); the deletion reconcile finalizes
// the spec's target, b, and drops the finalizer, never a, the target its
// status records. MachineSet a keeps the autoscaler's owner, min and max
// annotations, with no MachineAutoscaler left: the cluster autoscaler
// goes on scaling it, and nothing removes them.
func TestCAODeleteAfterRetargetLeavesOldTarget(t *testing.T) {
	env := startCAO(t)
	ctx := t.Context()
	s := caoScenario()
	for _, o := range s.Objects {
		if err := env.Client.Create(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	run := func(name string) {
		t.Helper()
		for _, a := range s.Actions {
			if a.Name == name {
				if err := a.Run(ctx, env.Client); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				return
			}
		}
		t.Fatalf("no action %s", name)
	}
	r := machineautoscaler.NewReconciler(stubManager{c: env.Client, s: env.Client.Scheme()}, machineautoscaler.Config{
		Namespace: caoNS, SupportedTargetGVKs: machineautoscaler.DefaultSupportedTargetGVKs()})
	req := reconcile.Request{NamespacedName: client.ObjectKey{Namespace: caoNS, Name: "ma"}}
	if _, err := r.Reconcile(ctx, req); err != nil {
		t.Fatal(err)
	}
	if err := caoInvariant(ctx, env.Client); err != nil {
		t.Fatalf("after the first reconcile: %v", err)
	}
	run("retarget-b")
	run("delete-ma")
	if _, err := r.Reconcile(ctx, req); err != nil {
		t.Fatal(err)
	}
	if err := env.Client.Get(ctx, req.NamespacedName, &cao.MachineAutoscaler{}); !apierrors.IsNotFound(err) {
		t.Fatalf("MachineAutoscaler %s still there after its deletion reconcile (%v)", req.NamespacedName, err)
	}
	a := &machinev1beta1.MachineSet{}
	if err := env.Client.Get(ctx, client.ObjectKey{Namespace: caoNS, Name: "a"}, a); err != nil {
		t.Fatal(err)
	}
	if a.Annotations[ownerAnnotation] != caoNS+"/ma" || a.Annotations[minAnnotation] != "1" || a.Annotations[maxAnnotation] != "3" {
		t.Fatalf("MachineSet a's annotations %v: want the deleted autoscaler's owner, min 1 and max 3 left (the bug)", a.Annotations)
	}
	t.Logf("MachineSet %s/a left autoscaled by a deleted MachineAutoscaler: %v", caoNS, a.Annotations)
}

// stubManager gives NewReconciler what it takes from a manager: the
// server's client (uncached: each read fresh), the scheme, a recorder.
type stubManager struct {
	manager.Manager
	c client.Client
	s *runtime.Scheme
}

func (m stubManager) GetClient() client.Client   { return m.c }
func (m stubManager) GetScheme() *runtime.Scheme { return m.s }
func (m stubManager) GetEventRecorderFor(string) record.EventRecorder {
	return record.NewFakeRecorder(100)
}

// TestCAOStaleLeaderReannotatesOldTarget plays, on the real server and
// without the explorer, what the search with a leader change reported
// (TestExploreCAORetarget): the leader finalizes MachineSet a on the
// retarget to b and records b as the last target; a new leader whose
// cache still holds the MachineAutoscaler from before the retarget (an API
// server whose watch cache lags) reads a fresh, finds no owner on it and
// writes the owner, min and max back: its Update of a is optimistic on a's
// version, not on the MachineAutoscaler's it decided from. Once its cache
// catches up, the last target is b, so no reconcile removes them again.
func TestCAOStaleLeaderReannotatesOldTarget(t *testing.T) {
	env := startCAO(t)
	ctx := t.Context()
	s := caoScenario()
	for _, o := range s.Objects {
		if err := env.Client.Create(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	newReconciler := func(c client.Client) reconcile.Reconciler {
		return machineautoscaler.NewReconciler(stubManager{c: c, s: env.Client.Scheme()}, machineautoscaler.Config{
			Namespace: caoNS, SupportedTargetGVKs: machineautoscaler.DefaultSupportedTargetGVKs()})
	}
	req := reconcile.Request{NamespacedName: client.ObjectKey{Namespace: caoNS, Name: "ma"}}
	reconcileOnce := func(r reconcile.Reconciler) {
		t.Helper()
		if _, err := r.Reconcile(ctx, req); err != nil {
			t.Fatal(err)
		}
	}
	leader := newReconciler(env.Client)
	reconcileOnce(leader)
	lag := &lagClient{Client: env.Client, ma: &cao.MachineAutoscaler{}}
	if err := env.Client.Get(ctx, req.NamespacedName, lag.ma); err != nil {
		t.Fatal(err) // what a lagging informer still holds after the retarget
	}
	if err := caoActions[0].Run(ctx, env.Client); err != nil { // retarget-b
		t.Fatal(err)
	}
	reconcileOnce(leader)
	if err := caoInvariant(ctx, env.Client); err != nil {
		t.Fatalf("after the leader's reconcile of the retarget: %v", err)
	}
	reconcileOnce(newReconciler(lag)) // the bug: MachineSet a annotated again
	reconcileOnce(newReconciler(env.Client))
	err := caoInvariant(ctx, env.Client)
	if err == nil || !strings.Contains(err.Error(), "MachineSet openshift-machine-api/a has owner/min/max") {
		t.Fatalf("want MachineSet a left autoscaled after the new leader caught up, got %v", err)
	}
	t.Log(err)
}

// lagClient answers Gets of MachineAutoscalers with what ma held, as an
// informer that has not seen the events since.
type lagClient struct {
	client.Client
	ma *cao.MachineAutoscaler
}

func (c *lagClient) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	if ma, ok := obj.(*cao.MachineAutoscaler); ok {
		c.ma.DeepCopyInto(ma)
		return nil
	}
	return c.Client.Get(ctx, key, obj, opts...)
}
