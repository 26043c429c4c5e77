package faults

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
)

var msGVK = schema.GroupVersionKind{Group: "cluster.x-k8s.io", Version: "v1beta2", Kind: "MachineSet"}

// created is a run whose book holds MachineSets named by names, each made
// by the step in by and stamped created, and whose step 7 applies the
// MachineSet applied.
func created(names []string, by []int, stamps []string, applied string) Run {
	b := book.New(nil, nil)
	for i, n := range names {
		k := book.Key{GVK: msGVK, NN: types.NamespacedName{Namespace: "capi", Name: n}}
		h := b.Record(k, map[string]any{"metadata": map[string]any{"name": n, "namespace": "capi", "uid": "uid-" + n,
			"creationTimestamp": stamps[i]}}, "1")
		h.By = []int{by[i]}
	}
	steps := []Step{{Index: 7, Reconciler: "machinedeployment", Object: "MachineDeployment capi/workers",
		Writes: []StepWrite{{Verb: "apply", Object: "MachineSet capi/" + applied, Answer: "ok"}}}}
	for i := 6; i >= 1; i-- {
		steps = append([]Step{{Index: i, Reconciler: "machinedeployment"}}, steps...)
	}
	return Run{Book: b, Steps: steps}
}

// A replay of Cluster API's duplicate MachineSet (examples/realops6)
// diverged in one run of four under load: the controller applies the
// first of its MachineSets for the template sorted by creationTimestamp,
// ties by name, and its two MachineSets were created in the same second
// in one run and a second apart in the other. The names were the same
// (the same random draws), so the divergence is the server's clock, and
// the report says so; where the runs' stamps are in the same order, or
// the object stamped differently was created at or after the step, it
// does not.
func TestDivergenceNamesTheServersClock(t *testing.T) {
	names, by := []string{"workers-xn8fg", "workers-txhzt"}, []int{3, 5}
	same := created(names, by, []string{"2026-11-30T13:34:05Z", "2026-11-30T13:34:05Z"}, "workers-txhzt")
	apart := created(names, by, []string{"2026-11-30T13:34:05Z", "2026-11-30T13:34:06Z"}, "workers-xn8fg")
	where, clock := Divergence(same, apart)
	if !strings.HasPrefix(where, "step 7 (machinedeployment reconciles MachineDeployment capi/workers), write 1") {
		t.Errorf("where = %q, want step 7's first write", where)
	}
	if want := "MachineSet capi/workers-txhzt was created in the same second as capi/workers-xn8fg the first time, in a second after it the second"; clock != want {
		t.Errorf("clock = %q, want %q", clock, want)
	}
	if _, clock := Divergence(apart, same); clock != "MachineSet capi/workers-xn8fg was created in a second before capi/workers-txhzt the first time, in the same second as it the second" {
		t.Errorf("the other way: clock = %q", clock)
	}

	// The same order in both runs: the operator's own randomness.
	later := created(names, by, []string{"2026-11-30T13:34:05Z", "2026-11-30T13:34:07Z"}, "workers-txhzt")
	if where, clock := Divergence(apart, later); where == "" || clock != "" {
		t.Errorf("the same order in both runs: want a divergence and no clock, got %q, %q", where, clock)
	}
	// One of the two made by the step that diverges: not before it.
	afterStep := created(names, []int{3, 7}, []string{"2026-11-30T13:34:05Z", "2026-11-30T13:34:06Z"}, "workers-xn8fg")
	sameAfter := created(names, []int{3, 7}, []string{"2026-11-30T13:34:05Z", "2026-11-30T13:34:05Z"}, "workers-txhzt")
	if _, clock := Divergence(sameAfter, afterStep); clock != "" {
		t.Errorf("a MachineSet made by the step that diverges: want no clock, got %q", clock)
	}
	// Two other MachineSets reordered, the two the write went to not: no
	// evidence that the clock decided it.
	three := []string{"workers-xn8fg", "workers-txhzt", "workers-abcde"}
	third := created(three, []int{3, 5, 6}, []string{"2026-11-30T13:34:05Z", "2026-11-30T13:34:05Z", "2026-11-30T13:34:05Z"}, "workers-abcde")
	thirdApart := created(three, []int{3, 5, 6}, []string{"2026-11-30T13:34:05Z", "2026-11-30T13:34:06Z", "2026-11-30T13:34:05Z"}, "workers-xn8fg")
	if where, clock := Divergence(third, thirdApart); where == "" || clock != "" {
		t.Errorf("another pair reordered, not the write's two objects: want a divergence and no clock, got %q, %q", where, clock)
	}
	if where, clock := Divergence(same, same); where != "" || clock != "" {
		t.Errorf("the same run twice: want no divergence, got %q, %q", where, clock)
	}
}
