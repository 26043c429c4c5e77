package explore_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
	"github.com/statuspatch/statuspatch/testenv/explore/report"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// stamper stamps a Widget's status with the time of its reconcile
// (status.phase holds it, as an operator's status.lastUpdated would: an
// RFC 3339 time, from a clock of its own so that schedules replay) when
// it acknowledges a generation it read, by a blind merge patch computed
// from its cached read. Two reconciles, the second on a stale read, lose
// the first one's stamp: a lost write that differs only in a time. After
// a spec change, the same stale reconcile also sets observedGeneration
// back from 2 to 1 where a second reconciler (the acker: the same code
// on fresh reads, through the API reader) acknowledged generation 2: the
// harmful bug, which the depth-first search meets one step deeper, after
// the benign one.
type stamper struct {
	c client.Client
	// read is the cache, or, for the acker, the API reader.
	read  client.Reader
	ticks int
}

func (r *stamper) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.read.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if w.Status.ObservedGeneration == w.Generation {
		return ctrl.Result{}, nil
	}
	base := w.DeepCopy()
	r.ticks++
	w.Status.Phase = time.Date(2026, 1, 1, 0, 0, r.ticks, 0, time.UTC).Format(time.RFC3339)
	w.Status.ObservedGeneration = w.Generation
	return ctrl.Result{}, r.c.Status().Patch(ctx, w, client.MergeFrom(base))
}

func stamperScenario() explore.Scenario {
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "stamper", For: &testv1.Widget{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return &stamper{c: c, read: c} }},
			{Name: "acker", For: &testv1.Widget{},
				New: func(c client.Client, api client.Reader) reconcile.Reconciler { return &stamper{c: c, read: api} }}},
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

// The search goes on past its first violation, a stamp lost to a stale
// reconcile (benign: only a time differs), keeps every distinct one, and
// leads with the most severe: observedGeneration set back. The stamp
// ranks last and says it differs only in time-like fields; the JSON
// report carries each rank and reason, in that order; the same search in
// parallel gives the same violations. StopAtFirst reports the first
// found, the stamp, as before (issue 82).
func TestSearchRanksTheMostSevereFirst(t *testing.T) {
	file := filepath.Join(t.TempDir(), "report.json")
	o := serverOptions(t)
	o.Report, o.Quiet, o.Parallel, o.StopAtFirst = file, true, 1, false
	res, err := explore.Run(t.Context(), stamperScenario(), o)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Exhausted || len(res.Violations) < 2 {
		t.Fatalf("want the space exhausted and at least two violations, got %d (exhausted %t):\n%v", len(res.Violations), res.Exhausted, res.Violations)
	}
	first, last := res.Violation, res.Violations[len(res.Violations)-1]
	t.Logf("%d violations in %d schedules; first:\n%s\nlast:\n%s", len(res.Violations), res.Schedules, first, last)
	if first != res.Violations[0] || first.Rank != 1 || !first.Broke(explore.InvariantObservedGeneration) ||
		!strings.Contains(first.RankReason, "a value goes backwards") {
		t.Errorf("want observedGeneration set back first, rank 1; got rank %d (%s):\n%s", first.Rank, first.RankReason, first)
	}
	const timeOnly = "the values differ only in time-like fields: status.phase"
	if last.Invariant != explore.InvariantLostWrite || last.Rank != 5 || !strings.Contains(last.Message, timeOnly) || last.Broke(explore.InvariantObservedGeneration) {
		t.Errorf("want the lost stamp last, rank 5, saying %q; got rank %d (%s):\n%s", timeOnly, last.Rank, last.RankReason, last)
	}
	for i, v := range res.Violations {
		if i > 0 && v.Rank < res.Violations[i-1].Rank {
			t.Errorf("violation %d ranks %d after rank %d", i, v.Rank, res.Violations[i-1].Rank)
		}
		if v.Rank < 5 && strings.Contains(v.Message, "time-like") {
			t.Errorf("violation %d of rank %d claims time-like fields only: %s", i, v.Rank, v.Message)
		}
		again, err := explore.Run(t.Context(), stamperScenario(), explore.Options{Backend: o.Backend, Replay: v.Seed, Quiet: true})
		if err != nil || again.Violation == nil || again.Violation.Message != v.Message || again.Diverged != "" {
			t.Errorf("replay of %q: %v, %v; want %q", v.Seed, err, again.Violation, v.Message)
		}
	}
	rep, err := report.Read(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Violations) != len(res.Violations) || rep.Violations[0].Rank != 1 || rep.Violations[0].RankReason != first.RankReason ||
		rep.Violations[len(rep.Violations)-1].Rank != 5 || rep.Violations[len(rep.Violations)-1].RankReason == "" {
		t.Errorf("report: want the %d violations ranked as the result, got %+v", len(res.Violations), rep.Violations)
	}

	second, err := startServer("embedded", widgetScheme(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(second.stop)
	par := o
	par.Backend, par.Report, par.Parallel = explore.Server(server(t), second), "", 2
	pres, err := explore.RunLastFirst(t.Context(), stamperScenario(), par)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := seeds(pres.Violations), seeds(res.Violations); got != want || pres.Schedules != res.Schedules {
		t.Errorf("parallel: %d schedules, violations %s; serial: %d, %s", pres.Schedules, got, res.Schedules, want)
	}

	o.StopAtFirst, o.Report = true, ""
	stop, err := explore.Run(t.Context(), stamperScenario(), o)
	if err != nil {
		t.Fatal(err)
	}
	if v := stop.Violation; len(stop.Violations) != 1 || v.Rank != 5 || !strings.Contains(v.Message, timeOnly) || stop.Schedules >= res.Schedules {
		t.Errorf("StopAtFirst: want the lost stamp alone, found first in fewer than %d schedules; got %d schedules:\n%v", res.Schedules, stop.Schedules, stop.Violations)
	}
}

func seeds(vs []*explore.Violation) string {
	var s []string
	for _, v := range vs {
		s = append(s, v.Invariant+" "+v.Seed)
	}
	return strings.Join(s, "; ")
}
