package explore_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// readier sets Widget ns/w's status.phase to ready, from fresh reads
// (the API reader), by a merge patch of status; pender, from its cached
// read, once it has not recorded itself in status.items, records itself
// and sets the phase to pending, by a blind merge patch: a pender
// reading the Widget before the readier's write takes its ready
// away, and the readier's next reconcile sets it again.
type readier struct {
	c    client.Client
	read client.Reader
}

func (r readier) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.read.Get(ctx, req.NamespacedName, w); err != nil || w.Status.Phase == "ready" {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := w.DeepCopy()
	w.Status.Phase = "ready"
	return ctrl.Result{}, r.c.Status().Patch(ctx, w, client.MergeFrom(base))
}

type pender struct{ c client.Client }

func (r pender) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil || slices.Contains(w.Status.Items, "pender") {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := w.DeepCopy()
	w.Status.Items, w.Status.Phase = append(w.Status.Items, "pender"), "pending"
	return ctrl.Result{}, r.c.Status().Patch(ctx, w, client.MergeFrom(base))
}

// planner records a plan in Widget ns/w's status.plan.id when it has
// none, a new one each time it computes one, by a blind merge patch of
// status from its cached read: a reconcile reading the Widget before
// the other's plan computes a second plan, which stays.
type planner struct {
	c     client.Client
	name  string
	plans *int
}

func (r planner) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil || w.Status.Plan != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := w.DeepCopy()
	*r.plans++
	w.Status.Plan = &testv1.WidgetPlan{ID: fmt.Sprintf("%s-%d", r.name, *r.plans)}
	return ctrl.Result{}, r.c.Status().Patch(ctx, w, client.MergeFrom(base))
}

// twoWriters is a scenario of reconcilers a and b on Widget ns/w, each
// made by newA and newB.
func twoWriters(newA, newB func(c client.Client, api client.Reader) reconcile.Reconciler) explore.Scenario {
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "a", For: &testv1.Widget{}, New: newA}, {Name: "b", For: &testv1.Widget{}, New: newB}},
		Objects:     []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
	}
}

// A lost write whose lost values the steady state holds again ranks
// below what persists, its message and cause kept, its reason naming
// the step that wrote them again: the readier sets ready again.
// A lost write whose values never come back keeps rank 2: the plan
// computed twice, the second staying (issue 82).
func TestLostWriteRestoredRanksBelowWhatPersists(t *testing.T) {
	o := serverOptions(t)
	o.StopAtFirst, o.Quiet, o.Parallel, o.FixedBounds = false, true, 1, true
	for _, tc := range []struct {
		name   string
		s      explore.Scenario
		field  string
		rank   int
		reason string
	}{
		{"ready set again", twoWriters(
			func(c client.Client, api client.Reader) reconcile.Reconciler { return readier{c: c, read: api} },
			func(c client.Client, _ client.Reader) reconcile.Reconciler { return pender{c: c} }),
			"status.phase written by step", 4, "the lost values were written again at step "},
		{"plan computed twice", twoWriters(
			func(c client.Client, _ client.Reader) reconcile.Reconciler {
				return planner{c: c, name: "a", plans: new(int)}
			},
			func(c client.Client, _ client.Reader) reconcile.Reconciler {
				return planner{c: c, name: "b", plans: new(int)}
			}),
			"status.plan.id written by step", 2, "a decision lost"},
	} {
		res, err := explore.Run(t.Context(), tc.s, o)
		if err != nil {
			t.Fatal(err)
		}
		var lost []*explore.Violation
		for _, v := range res.Violations {
			t.Logf("%s: rank %d (%s): %s", tc.name, v.Rank, v.RankReason, v.Message)
			if v.Invariant == explore.InvariantLostWrite && strings.Contains(v.Message, tc.field) {
				lost = append(lost, v)
			}
		}
		if len(lost) != 1 {
			t.Fatalf("%s: want one lost write of %s, got %d violations", tc.name, tc.field, len(res.Violations))
		}
		v := lost[0]
		if v.Rank != tc.rank || !strings.Contains(v.RankReason, tc.reason) || v.Cause == nil || strings.Contains(v.Message, "written again") {
			t.Errorf("%s: rank %d (%s), cause %v; want rank %d saying %q, its cause and message kept:\n%s", tc.name, v.Rank, v.RankReason, v.Cause, tc.rank, tc.reason, v)
		}
		again, err := explore.Run(t.Context(), tc.s, explore.Options{Backend: o.Backend, Replay: v.Seed, Quiet: true})
		if err != nil || again.Violation == nil || again.Violation.Rank != v.Rank || again.Violation.RankReason != v.RankReason {
			t.Errorf("%s: replay of %q: %v, %v; want rank %d (%s)", tc.name, v.Seed, err, again.Violation, v.Rank, v.RankReason)
		}
	}
}
