package explore_test

import (
	"context"
	"strconv"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// acker acknowledges the generation it read, with a phase naming it, by
// a blind merge patch of status; read is the cache or the API reader.
type acker struct {
	c    client.Client
	read client.Reader
}

func (r acker) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.read.Get(ctx, req.NamespacedName, w); err != nil || w.Status.ObservedGeneration == w.Generation {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := w.DeepCopy()
	w.Status.ObservedGeneration = w.Generation
	w.Status.Phase = "ready-" + strconv.FormatInt(w.Generation, 10)
	return ctrl.Result{}, r.c.Status().Patch(ctx, w, client.MergeFrom(base))
}

// ackerScenario: controllers a and b run the acker from the cache, f
// from the API reader, on Widget ns/w; the action resize changes its
// spec.
func ackerScenario() explore.Scenario {
	cached := func(c client.Client, _ client.Reader) reconcile.Reconciler { return acker{c: c, read: c} }
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "a", For: &testv1.Widget{}, New: cached}, {Name: "b", For: &testv1.Widget{}, New: cached},
			{Name: "f", For: &testv1.Widget{}, New: func(c client.Client, api client.Reader) reconcile.Reconciler { return acker{c: c, read: api} }}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Actions: []explore.Action{{Name: "resize", Run: func(ctx context.Context, c client.Client) error {
			w := &testv1.Widget{}
			if err := c.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "w"}, w); err != nil {
				return err
			}
			w.Spec.Size++
			return c.Update(ctx, w)
		}}},
	}
}

// One defect, the acker's blind patch from a stale read, loses an
// earlier write of status.observedGeneration and status.phase in two
// kinds of schedule after the spec change: a, stale, acknowledges
// generation 1, then b, from a read older than a's write, generation 2
// over it (rank 2: a decision lost); or f acknowledges 2 and a, stale,
// then 1 over it (rank 1: a value goes backwards). The search reports
// the defect once, at rank 1, not once per rank (machine-api-operator's
// MachineSet, reported twice in stop 83: the distinct-violation key held
// the rank).
func TestOneDefectReportedOnceAtItsMostSevere(t *testing.T) {
	o := serverOptions(t)
	o.StopAtFirst, o.Quiet, o.Parallel, o.FixedBounds = false, true, 1, true
	res, err := explore.Run(t.Context(), ackerScenario(), o)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]*explore.Violation{}
	var lost []*explore.Violation
	for _, v := range res.Violations {
		t.Logf("rank %d %s: %s; also %v", v.Rank, v.Invariant, v.Message, v.Also)
		k := explore.ViolationKey(v)
		if w := seen[k]; w != nil {
			t.Errorf("one defect reported twice, rank %d and rank %d:\n%s\n%s", w.Rank, v.Rank, w, v)
		}
		seen[k] = v
		if v.Invariant == explore.InvariantLostWrite {
			lost = append(lost, v)
		}
	}
	if len(lost) != 1 || lost[0].Rank != 1 || !lost[0].Broke(explore.InvariantObservedGeneration) {
		t.Errorf("want the ackers' lost write once, at rank 1 (its observedGeneration set back), got:\n%v", lost)
	}
}
