package realops3

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	machinev1beta1 "github.com/openshift/api/machine/v1beta1"
	caoapis "github.com/openshift/cluster-autoscaler-operator/pkg/apis"
	cao "github.com/openshift/cluster-autoscaler-operator/pkg/apis/autoscaling/v1beta1"
	"github.com/openshift/cluster-autoscaler-operator/pkg/controller/machineautoscaler"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/statuspatch/statuspatch/testenv"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// caoNS is the operator's namespace: its MachineAutoscalers and their
// targets (--namespace, openshift-machine-api by default).
const caoNS = "openshift-machine-api"

// The annotations the MachineAutoscaler controller keeps on its target.
const (
	ownerAnnotation = machineautoscaler.MachineTargetOwnerAnnotation
	minAnnotation   = "machine.openshift.io/cluster-api-autoscaler-node-group-min-size"
	maxAnnotation   = "machine.openshift.io/cluster-api-autoscaler-node-group-max-size"
)

// caoSetup is pkg/operator's AddControllers for the MachineAutoscaler
// controller, as operator.New calls it: its namespace and the default
// target kinds (MachineSet).
func caoSetup(mgr manager.Manager) error {
	return machineautoscaler.NewReconciler(mgr, machineautoscaler.Config{
		Namespace:           caoNS,
		SupportedTargetGVKs: machineautoscaler.DefaultSupportedTargetGVKs(),
	}).AddToManager(mgr)
}

func machineSet(name string) *machinev1beta1.MachineSet {
	return &machinev1beta1.MachineSet{ObjectMeta: metav1.ObjectMeta{Namespace: caoNS, Name: name}}
}

// patchMA is a user's merge patch of MachineAutoscaler ma.
func patchMA(name, patch string) explore.Action {
	return explore.Action{Name: name, Run: func(ctx context.Context, c client.Client) error {
		return c.Patch(ctx, &cao.MachineAutoscaler{ObjectMeta: metav1.ObjectMeta{Namespace: caoNS, Name: "ma"}},
			client.RawPatch(types.MergePatchType, []byte(patch)))
	}}
}

// caoActions are the user's writes, each at any point: retarget the
// autoscaler to MachineSet b, raise its maximum to 5, delete it.
var caoActions = []explore.Action{
	patchMA("retarget-b", `{"spec":{"scaleTargetRef":{"name":"b"}}}`),
	patchMA("max-5", `{"spec":{"maxReplicas":5}}`),
	{Name: "delete-ma", Run: func(ctx context.Context, c client.Client) error {
		return c.Delete(ctx, &cao.MachineAutoscaler{ObjectMeta: metav1.ObjectMeta{Namespace: caoNS, Name: "ma"}})
	}},
}

// caoScenario is a MachineAutoscaler (1 to 3 machines) of MachineSet a,
// and MachineSet b, with the user's writes of caoActions named by
// actions (all of them without any).
func caoScenario(actions ...string) explore.Scenario {
	var acts []explore.Action
	for _, a := range caoActions {
		if len(actions) == 0 || slices.Contains(actions, a.Name) {
			acts = append(acts, a)
		}
	}
	return explore.Scenario{
		Setup: caoSetup,
		Objects: []client.Object{
			machineSet("a"), machineSet("b"),
			&cao.MachineAutoscaler{ObjectMeta: metav1.ObjectMeta{Namespace: caoNS, Name: "ma"},
				Spec: cao.MachineAutoscalerSpec{MinReplicas: 1, MaxReplicas: 3,
					ScaleTargetRef: cao.CrossVersionObjectReference{APIVersion: "machine.openshift.io/v1beta1", Kind: "MachineSet", Name: "a"}}},
		},
		Actions:   acts,
		Invariant: caoInvariant,
	}
}

// caoInvariant is what the controller promises in a steady state (its
// README: the cluster autoscaler scales exactly the MachineSets a
// MachineAutoscaler targets, within its limits): the MachineSet a live
// MachineAutoscaler targets carries its owner, minimum and maximum
// annotations, and no other MachineSet carries any of them.
func caoInvariant(ctx context.Context, r client.Reader) error {
	ma := &cao.MachineAutoscaler{}
	err := r.Get(ctx, client.ObjectKey{Namespace: caoNS, Name: "ma"}, ma)
	if client.IgnoreNotFound(err) != nil {
		return err
	}
	target := ""
	if err == nil {
		target = ma.Spec.ScaleTargetRef.Name
	}
	var errs []error
	for _, name := range []string{"a", "b"} {
		ms := &machinev1beta1.MachineSet{}
		if err := r.Get(ctx, client.ObjectKey{Namespace: caoNS, Name: name}, ms); err != nil {
			return err
		}
		got := [3]string{ms.Annotations[ownerAnnotation], ms.Annotations[minAnnotation], ms.Annotations[maxAnnotation]}
		want := [3]string{}
		if name == target {
			want = [3]string{caoNS + "/ma", fmt.Sprint(ma.Spec.MinReplicas), fmt.Sprint(ma.Spec.MaxReplicas)}
		}
		if got != want {
			errs = append(errs, fmt.Errorf("MachineSet %s/%s has owner/min/max %q, want %q (MachineAutoscaler %s/ma targets %q)",
				caoNS, name, got, want, caoNS, target))
		}
	}
	return errors.Join(errs...)
}

// startCAO runs the full API with the operator's MachineAutoscaler CRD
// and openshift/api's MachineSet CRD of the TechPreviewNoUpgrade feature
// set: the Default set's lacks the feature-gated status fields the Go
// type has, which testenv's status schema check refuses.
func startCAO(t *testing.T) *testenv.Env {
	return start(t, caoNS, func(s *runtime.Scheme) error {
		return errors.Join(caoapis.AddToScheme(s), machinev1beta1.Install(s))
	},
		crdFile{"github.com/openshift/cluster-autoscaler-operator", "install/02_machineautoscaler.crd.yaml"},
		crdFile{"github.com/openshift/api", "machine/v1beta1/zz_generated.crd-manifests/0000_10_machine-api_01_machinesets-TechPreviewNoUpgrade.crd.yaml"})
}

// search runs one search of s and logs its figures; it returns the
// violation found, if any.
func search(t *testing.T, s explore.Scenario, o explore.Options) *explore.Violation {
	t.Helper()
	o.Backend = explore.Server(startCAO(t))
	res, err := explore.Run(t.Context(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d schedules (%d pruned) in %s, exhausted %v, at %s", res.Schedules, res.Pruned, res.Elapsed.Round(time.Second), res.Exhausted, res.Bounds)
	if v := res.Violation; v != nil {
		t.Logf("found after %d schedules in %s at %s:\n%s", v.Schedules, v.FoundAfter.Round(time.Second), v.Bounds, v)
	}
	return res.Violation
}

// leftAutoscaled is the violation both bugs show: MachineSet a keeps the
// autoscaler's annotations though no live MachineAutoscaler targets it.
func leftAutoscaled(v *explore.Violation) bool {
	return v != nil && v.Broke(explore.InvariantUser) && strings.Contains(v.String(), "MachineSet openshift-machine-api/a has owner/min/max")
}

// TestCAODefaults explores the scenario with the default options: the
// first schedule, every step in order with fresh reads, leaves MachineSet
// a autoscaled after its MachineAutoscaler, retargeted to b, is deleted
// (TestCAODeleteAfterRetargetLeavesOldTarget plays it without the
// explorer).
func TestCAODefaults(t *testing.T) {
	if v := search(t, caoScenario(), explore.Options{Budget: 8 * time.Minute}); !leftAutoscaled(v) || v.Seed != "-" {
		t.Fatalf("want MachineSet a left autoscaled reported on the fresh schedule, got:\n%v", v)
	}
}

// TestCAODefaultsRetarget and TestCAODefaultsDelete leave out one action
// of that bug. Each deepening level passes; the fault phase reports the
// other bug, a new leader whose cache lags putting the annotations back
// on MachineSet a after the old leader finalized it (on the retarget, on
// the deletion: TestCAOStaleLeaderReannotatesOldTarget plays it without
// the explorer). Any other violation fails them.
func TestCAODefaultsRetarget(t *testing.T) {
	if v := search(t, caoScenario("retarget-b", "max-5"), explore.Options{Budget: 7 * time.Minute}); v != nil && !leftAutoscaled(v) {
		t.Error("a violation other than MachineSet a left autoscaled")
	}
}

func TestCAODefaultsDelete(t *testing.T) {
	if v := search(t, caoScenario("max-5", "delete-ma"), explore.Options{Budget: 7 * time.Minute}); v != nil && !leftAutoscaled(v) {
		t.Error("a violation other than MachineSet a left autoscaled")
	}
}

// TestExploreCAOLeaderChange explores each half with a crash and a
// leader change: each reports the lagging new leader's annotations.
func TestExploreCAOLeaderChange(t *testing.T) {
	for _, actions := range [][]string{{"retarget-b", "max-5"}, {"max-5", "delete-ma"}} {
		t.Run(strings.Join(actions, ","), func(t *testing.T) {
			v := search(t, caoScenario(actions...), explore.Options{Crashes: 1, LeaderChange: true, Budget: 7 * time.Minute})
			if !leftAutoscaled(v) || !strings.Contains(v.String(), "needs a control plane of several API servers") {
				t.Fatalf("want MachineSet a left autoscaled by a lagging new leader reported, got:\n%v", v)
			}
		})
	}
}

// TestExploreCAOCrash explores each half with a crash and restart and no
// leader change: no violation.
func TestExploreCAOCrash(t *testing.T) {
	for _, actions := range [][]string{{"retarget-b", "max-5"}, {"max-5", "delete-ma"}} {
		t.Run(strings.Join(actions, ","), func(t *testing.T) {
			if v := search(t, caoScenario(actions...), explore.Options{Crashes: 1, Budget: 5 * time.Minute}); v != nil {
				t.Error("violation")
			}
		})
	}
}
