package patcherit_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"
)

// Issue 71's attribution traps, drawn by the oracle: removal-only
// decisions of two writers from one base (the shared condition Ready and
// counters["shared"]: a map list's item and a map's key), the other's a
// plain PATCH of another process (whose answer this process does not
// know), and objects past the cap of ten Update managers whose entries
// are dated after every write (each new entry, a manager probe's dry run
// included, is merged into ancient-changes), and other processes' writes
// through a second served apiVersion (v2: the server keeps their writers
// an entry of v2 beside the one of v1).

var oracleTrapSeeds = flag.Int("oracle.trapseeds", 40, "TestOracleTraps: run seeds 1 to N")

// TestOracleTraps runs newTrapSchedule's seeds 1 to -oracle.trapseeds
// (40) and logs the verdicts.
//
//	cd testenv && go test ./internal/patcherit -run 'TestOracleTraps$' -v -args -oracle.trapseeds=400
func TestOracleTraps(t *testing.T) {
	e := oracleEnv(t)
	stats := &oracleStats{}
	for seed := range uint64(*oracleTrapSeeds) {
		t.Run(fmt.Sprintf("seed-%d", seed+1), func(t *testing.T) {
			runChecked(t, e, newTrapSchedule(seed+1), stats)
		})
	}
	t.Logf("verdicts by write mode and client:\n%s", stats.table())
}

// newTrapSchedule is newSchedule(seed) with the traps drawn from a stream
// of their own: newSchedule's seeds stay as they were.
func newTrapSchedule(seed uint64) oracleSchedule {
	s := newSchedule(seed)
	trap := rand.New(rand.NewPCG(seed, 0x71))
	s.queue, s.busy = trap.IntN(4) != 0, trap.IntN(4) == 0
	if !s.queue {
		return s
	}
	n := len(s.writers)
	for r := range s.rounds {
		for k := range s.rounds[r].steps {
			st := &s.rounds[r].steps[k]
			if s.writers[st.writer].mode == patcher.WriteApplyWithoutLock || trap.IntN(2) != 0 {
				continue
			}
			st.spec = decisionSpec{takeShared: true}
			st.faults = []plannedFault{[]plannedFault{{kind: faultForeignReset}, {kind: faultReset, after: true}}[trap.IntN(2)]}
			st.foreignWriter = (st.writer + 1 + trap.IntN(n-1)) % n
			st.foreignSpec = decisionSpec{takeShared: true}
			st.raw, st.burst = true, false
			st.v2 = trap.IntN(3) == 0
		}
	}
	// Other writers' entries of v2: some foreign decisions of the
	// ordinary steps become another process's, through v2.
	for r := range s.rounds {
		for k := range s.rounds[r].steps {
			if st := &s.rounds[r].steps[k]; len(st.faults) > 0 && !st.raw && trap.IntN(3) == 0 {
				st.raw, st.v2, st.burst = true, true, false
			}
		}
	}
	return s
}

// fillSharedQueue puts the shared condition Ready and counters["shared"]
// in the status before the schedule, and returns the object after.
func fillSharedQueue(t *testing.T, e *testenv.Env, key client.ObjectKey) *v1.Widget {
	t.Helper()
	p, err := patcher.Fetch(ctx, e.Client, key, &v1.Widget{}, patcher.WithMetrics(nil), patcher.WithFieldOwner("queue-filler"))
	if err != nil {
		t.Fatal(err)
	}
	st := &p.Object().Status
	meta.SetStatusCondition(&st.Conditions, metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Queued"})
	if st.Counters == nil {
		st.Counters = map[string]int64{}
	}
	st.Counters["shared"] = 1
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	return get(t, e.Client, key)
}

// crowdLater gives the object ten Update managers (of labels) dated a day
// after now, written as managedFields by a client (the server keeps what
// a client writes there), and returns the object after: every entry
// written during the schedule is older, and the first merged into
// ancient-changes.
func crowdLater(t *testing.T, e *testenv.Env, key client.ObjectKey) *v1.Widget {
	t.Helper()
	w := get(t, e.Client, key)
	w.Labels = map[string]string{}
	for i := range 10 {
		w.Labels[fmt.Sprintf("l%d", i)] = "x"
	}
	if err := e.Client.Update(ctx, w); err != nil {
		t.Fatal(err)
	}
	w = get(t, e.Client, key)
	later := time.Now().Add(24 * time.Hour).UTC().Truncate(time.Second)
	for i := range 10 {
		w.ManagedFields = append(w.ManagedFields, metav1.ManagedFieldsEntry{Manager: fmt.Sprintf("later-%d", i),
			Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "testing.statuspatch.dev/v1", Time: &metav1.Time{Time: later},
			FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: fmt.Appendf(nil, `{"f:metadata":{"f:labels":{"f:l%d":{}}}}`, i)}}) //nolint:staticcheck // Raw: NewFieldsV1 is k8s.io v0.37 only, and testenv is tested at the floor, v0.34
	}
	if err := e.Client.Update(ctx, w); err != nil {
		t.Fatalf("setup: write the ten entries: %v", err)
	}
	return get(t, e.Client, key)
}

// rawForeign is st's foreign decision as another process makes it: a
// read, then a merge patch of the status under the lock through the
// writer's client and field owner, not through a patcher; through
// apiVersion v2 when st.v2 (the server keeps that writer an entry of v2).
// Nothing is sent when the decision changes nothing.
func (run *oracleRun) rawForeign(fctx context.Context, fw *runWriter, st oracleStep, tok int64) error {
	w := &v1.Widget{}
	if err := run.direct.Get(ctx, run.key, w); err != nil {
		return fmt.Errorf("read %s: %w", run.key, err)
	}
	orig := w.DeepCopy()
	if err := st.foreignSpec.mutate(st.foreignWriter, tok)(w); err != nil {
		return err
	}
	if equality.Semantic.DeepEqual(orig.Status, w.Status) {
		return nil
	}
	var opts []client.SubResourcePatchOption
	if fw.manager != "" {
		opts = append(opts, client.FieldOwner(fw.manager))
	}
	patch := client.MergeFromWithOptions(orig, client.MergeFromWithOptimisticLock{})
	var obj client.Object = w
	if st.v2 {
		body, err := patch.Data(w)
		if err != nil {
			return fmt.Errorf("the patch of %s: %w", run.key, err)
		}
		u := &unstructured.Unstructured{}
		u.SetAPIVersion("testing.statuspatch.dev/v2")
		u.SetKind("Widget")
		u.SetName(run.key.Name)
		u.SetNamespace(run.key.Namespace)
		obj, patch = u, client.RawPatch(types.MergePatchType, body)
	}
	if err := fw.c.Status().Patch(fctx, obj, patch, opts...); err != nil {
		return fmt.Errorf("patch status of %s: %w", run.key, err)
	}
	return nil
}
