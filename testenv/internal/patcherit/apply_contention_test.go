package patcherit_test

import (
	"fmt"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// buildPlanWith is the "status.plan == nil" reconcile in apply mode: both
// reconciles read before either writes (the barrier), and each builds a
// plan when it saw none. Each is its own controller (field owner).
func buildPlanWith(mode patcher.Option) func(c client.Client, key client.ObjectKey, id string, b *barrier) (bool, error) {
	return func(c client.Client, key client.ObjectKey, id string, b *barrier) (bool, error) {
		p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, patcher.WithFieldOwner("planner-"+id), mode)
		if err != nil {
			return false, err
		}
		b.wait()
		built := false
		err = p.Retry(ctx, func(w *v1.Widget) error {
			built = false
			if w.Status.Plan != nil {
				return nil // planned already: skip
			}
			w.Status.Plan = &v1.WidgetPlan{ID: id, Steps: []string{"a", "b"}}
			built = true
			return nil
		})
		return built, err
	}
}

// With WithApply the plan == nil decision is made under the lock: the
// loser's apply gets a 409, Retry runs it again, it sees the winner's plan
// and skips. One plan, every round.
func TestApplyDoubleReconcileBuildsOnePlan(t *testing.T) {
	e := env(t)
	for round := range 10 {
		key := client.ObjectKey{Namespace: "default", Name: objectName(t)}
		created := buildPlansConcurrently(t, e.Client, key, buildPlanWith(patcher.WithWriteMode(patcher.WriteApply)))
		if len(created) != 1 {
			t.Fatalf("round %d: %d reconciles built a plan (%v), want exactly 1", round, len(created), created)
		}
		if got := get(t, e.Client, key).Status.Plan; got == nil || got.ID != created[0] {
			t.Fatalf("round %d: server plan %+v, want %s", round, got, created[0])
		}
	}
}

// WithApplyWithoutLock gives the lock up: both reconciles saw no plan,
// both applies are stored, the second forces its plan over the first.
// Both believe their plan is the one: a plan is lost, every round. This is
// why the decision needs WithApply.
func TestApplyWithoutLockLosesAPlan(t *testing.T) {
	e := env(t)
	for round := range 5 {
		key := client.ObjectKey{Namespace: "default", Name: objectName(t)}
		created := buildPlansConcurrently(t, e.Client, key, buildPlanWith(patcher.WithWriteMode(patcher.WriteApplyWithoutLock)))
		if len(created) != 2 {
			t.Fatalf("round %d: %d reconciles built a plan (%v); without the lock both should", round, len(created), created)
		}
	}
}

// Two controllers own disjoint parts of one status (their own condition
// and their own counter) and write without the lock, every round both
// after reading the same version: every write lands, none conflicts, and
// each controller's last values are on the server.
func TestApplyWithoutLockDisjointWritersBothLand(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	const rounds = 10
	var cc conflictCounter
	b := newBarrier(2)
	var wg sync.WaitGroup
	for i, name := range []string{"alpha", "beta"} {
		c := cc.client(t)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, patcher.WithFieldOwner(name), patcher.WithWriteMode(patcher.WriteApplyWithoutLock))
				if err != nil {
					t.Error(err)
					return
				}
				b.wait() // both have read the same version
				w := p.Object()
				meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Ready-" + name, Status: metav1.ConditionTrue,
					Reason: fmt.Sprintf("Round%d", r), LastTransitionTime: metav1.Now()})
				if w.Status.Counters == nil {
					w.Status.Counters = map[string]int64{}
				}
				w.Status.Counters[name] = int64(r + 1 + i*100)
				if err := p.Flush(ctx); err != nil {
					t.Errorf("%s round %d: %v", name, r, err)
				}
				b.wait() // both have written
			}
		}()
	}
	wg.Wait()
	if n := cc.n.Load(); n != 0 {
		t.Fatalf("%d conflicts, want none", n)
	}
	got := get(t, e.Client, key)
	for i, name := range []string{"alpha", "beta"} {
		c := meta.FindStatusCondition(got.Status.Conditions, "Ready-"+name)
		if c == nil || c.Reason != fmt.Sprintf("Round%d", rounds-1) || got.Status.Counters[name] != int64(rounds+i*100) {
			t.Fatalf("server status %+v: want %s's last round", got.Status, name)
		}
	}
}
