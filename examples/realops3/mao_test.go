package realops3

import (
	"context"
	"fmt"
	"testing"
	"time"

	openshiftfeatures "github.com/openshift/api/features"
	machinev1beta1 "github.com/openshift/api/machine/v1beta1"
	"github.com/openshift/machine-api-operator/pkg/controller/machineset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/component-base/featuregate"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/statuspatch/statuspatch/testenv"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// TestExploreMachineSet explores machine-api-operator's MachineSet
// controller (pkg/controller/machineset, a module realops3 already
// requires through cluster-autoscaler-operator), explored here for the
// first time as docs/explore-your-operator.md tells a new user: Setup is
// main.go's machineset.Add, the options the defaults and a budget. A
// MachineSet of two Machines and a user scaling it to 3 at any point; the
// operator's promise: as many Machines as replicas at every steady state.
// The reports are judged in examples/realops/README.md
// (machine-api-operator: a held-out MachineSet controller).
func TestExploreMachineSet(t *testing.T) {
	env, gate := startMachineSet(t)
	s := machineSetScenario(gate)
	res, err := explore.Run(t.Context(), s, explore.Options{Backend: explore.Server(env), Budget: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d schedules (%d pruned) in %s, exhausted %v, at %s", res.Schedules, res.Pruned, res.Elapsed.Round(time.Second), res.Exhausted, res.Bounds)
	for i, v := range res.Violations {
		t.Logf("report %d: rank %d (%s), found after %d schedules:\n%s", i+1, v.Rank, v.RankReason, v.Schedules, v)
	}
	// Its bug (TestMachineSetLaggingLeaderReplay) is found in the fault
	// phase, random, and at about 0.6 schedules/s on a loaded machine the
	// search may end before it: what it found must be ranked, the most
	// severe first.
	for i := 1; i < len(res.Violations); i++ {
		if res.Violations[i].Rank < res.Violations[i-1].Rank {
			t.Errorf("report %d ranks %d after report %d's %d", i+1, res.Violations[i].Rank, i, res.Violations[i-1].Rank)
		}
	}
}

// machineSetLeaderSeed is report 1 of TestExploreMachineSet (2026-11-28).
const machineSetLeaderSeed = "!scale-to-3 machineset_controller:openshift-machine-api/ms@0,0,0,0,0,0,0,0 machineset_controller:openshift-machine-api/ms@0,0#1L machineset_controller:openshift-machine-api/ms@3,0,0,0"

// TestMachineSetLaggingLeaderReplay replays the bug the search reports
// first: a new leader whose cache lags reads the MachineSet before the
// scale-up, deletes a Machine the old leader created for it (a cloud
// instance, created again at once) and sets status.observedGeneration
// back by its blind status patch (machineset/status.go:109); rank 1.
func TestMachineSetLaggingLeaderReplay(t *testing.T) {
	env, gate := startMachineSet(t)
	res, err := explore.Run(t.Context(), machineSetScenario(gate), explore.Options{Backend: explore.Server(env), Replay: machineSetLeaderSeed, Versions: 8})
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || v.Rank != 1 || !v.Broke(explore.InvariantOwnDelete) || !v.Broke(explore.InvariantObservedGeneration) {
		t.Fatalf("want the lagging new leader's delete and observedGeneration set back, rank 1, got:\n%v", v)
	}
	t.Logf("rank %d (%s):\n%s", v.Rank, v.RankReason, v)
}

// startMachineSet runs the full API with openshift/api's MachineSet and
// Machine CRDs, and returns main.go's feature gate: MachineAPIMigration
// off, its default.
func startMachineSet(t *testing.T) (*testenv.Env, featuregate.MutableFeatureGate) {
	env := start(t, caoNS, machinev1beta1.Install,
		crdFile{"github.com/openshift/api", "machine/v1beta1/zz_generated.crd-manifests/0000_10_machine-api_01_machinesets-TechPreviewNoUpgrade.crd.yaml"},
		crdFile{"github.com/openshift/api", "machine/v1beta1/zz_generated.crd-manifests/0000_10_machine-api_01_machines-TechPreviewNoUpgrade.crd.yaml"})
	gate := featuregate.NewFeatureGate()
	if err := gate.Add(map[featuregate.Feature]featuregate.FeatureSpec{
		featuregate.Feature(openshiftfeatures.FeatureGateMachineAPIMigration): {Default: false, PreRelease: featuregate.Alpha},
	}); err != nil {
		t.Fatal(err)
	}
	return env, gate
}

// machineSetScenario is a MachineSet of two Machines, a user scaling it
// to 3 at any point, and the operator's promise: as many Machines as
// replicas at every steady state.
func machineSetScenario(gate featuregate.MutableFeatureGate) explore.Scenario {
	labels := map[string]string{"machine.openshift.io/cluster-api-machineset": "ms"}
	return explore.Scenario{
		Setup: func(mgr manager.Manager) error { return machineset.Add(mgr, manager.Options{}, gate) },
		Objects: []client.Object{&machinev1beta1.MachineSet{
			ObjectMeta: metav1.ObjectMeta{Namespace: caoNS, Name: "ms"},
			Spec: machinev1beta1.MachineSetSpec{Replicas: ptr.To(int32(2)),
				Selector: metav1.LabelSelector{MatchLabels: labels},
				Template: machinev1beta1.MachineTemplateSpec{ObjectMeta: machinev1beta1.ObjectMeta{Labels: labels}}}}},
		Actions: []explore.Action{{Name: "scale-to-3", Run: func(ctx context.Context, c client.Client) error {
			return c.Patch(ctx, &machinev1beta1.MachineSet{ObjectMeta: metav1.ObjectMeta{Namespace: caoNS, Name: "ms"}},
				client.RawPatch(types.MergePatchType, []byte(`{"spec":{"replicas":3}}`)))
		}}},
		Invariant: func(ctx context.Context, r client.Reader) error {
			ms, machines := &machinev1beta1.MachineSet{}, &machinev1beta1.MachineList{}
			if err := r.Get(ctx, client.ObjectKey{Namespace: caoNS, Name: "ms"}, ms); err != nil {
				return err
			}
			if err := r.List(ctx, machines, client.InNamespace(caoNS), client.MatchingLabels(labels)); err != nil {
				return err
			}
			if n := int32(len(machines.Items)); n != *ms.Spec.Replicas {
				return fmt.Errorf("MachineSet %s/ms has %d Machines, wants %d", caoNS, n, *ms.Spec.Replicas)
			}
			return nil
		},
	}
}
