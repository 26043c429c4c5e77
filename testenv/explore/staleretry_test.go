package explore_test

import (
	"context"
	"errors"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
	"github.com/statuspatch/statuspatch/testenv/explore/report"
)

// retryTries is how often retryStatus's helper tries its locked patch.
const retryTries = 5

// retryStatus sets status.observedGeneration through a status helper that
// retries a locked patch retryTries times, each after a cached Get, as
// many operators' helpers do. After retryTries conflicts in a row it gives
// up and marks the Widget failed (status.plan.id "gave-up"), which it
// never reconciles again: the bug. It shows only when every read of the
// loop is stale, as when an informer lags for a few seconds.
type retryStatus struct{ c client.Client }

func (r *retryStatus) Reconcile(ctx context.Context, req reconcile.Request) (ctrl.Result, error) {
	for range retryTries {
		w := &testv1.Widget{}
		if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
			return ctrl.Result{}, client.IgnoreNotFound(err)
		}
		if w.Status.Plan != nil && w.Status.Plan.ID == "gave-up" {
			return ctrl.Result{}, nil // failed for good
		}
		if w.Status.ObservedGeneration == w.Generation {
			return ctrl.Result{}, nil
		}
		base := w.DeepCopy()
		w.Status.ObservedGeneration = w.Generation
		err := r.c.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
		if !apierrors.IsConflict(err) {
			return ctrl.Result{}, err
		}
	}
	w := &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: req.Namespace, Name: req.Name}}
	return ctrl.Result{}, r.c.Status().Patch(ctx, w, client.RawPatch(types.MergePatchType, []byte(`{"status":{"plan":{"id":"gave-up"}}}`)))
}

// With the default options and bounds (deepening level 0: two units of
// staleness), the explorer reaches a reconcile in which every read of a
// five-try retry loop is stale: one stale window of the Widget's informer
// covers them all, so the helper gives up and the Widget is left failed,
// its observedGeneration behind for good. Counted per read, five stale
// reads needed level 1, which a search of a real operator does not reach
// within its budget (issue 73).
func TestStaleWindowReachesRetryLoop(t *testing.T) {
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "status", For: &testv1.Widget{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return &retryStatus{c: c} }}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Actions: []explore.Action{resize},
	}
	file := filepath.Join(t.TempDir(), "report.json")
	res, err := explore.Run(t.Context(), s, explore.Options{Backend: explore.Server(server(t)), Budget: searchBound, StopAtFirst: true, Report: file})
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil {
		t.Fatalf("no violation in %d schedules at %s", res.Schedules, res.Bounds)
	}
	t.Logf("found after %d schedules:\n%s", v.Schedules, v)
	if v.Bounds.Level != 0 || v.Bounds.Faults {
		t.Errorf("found at %s, want at deepening level 0 (the default bounds)", v.Bounds)
	}
	if !strings.Contains(v.String(), `"id":"gave-up"`) {
		t.Errorf("want the helper to give up after %d conflicts", retryTries)
	}
	allStale := false
	for _, st := range v.Steps {
		stale, conflicts := 0, 0
		for _, rd := range st.Reads {
			if rd.Version < rd.Newest {
				stale++
			}
		}
		for _, w := range st.Writes {
			if strings.Contains(w.Answer, "the object has been modified") { // a 409
				conflicts++
			}
		}
		if stale == retryTries && len(st.Reads) == retryTries && conflicts == retryTries {
			allStale = true
		}
	}
	if !allStale {
		t.Errorf("no step whose %d reads are all stale, each followed by a 409", retryTries)
	}

	// The report and the replay name the window: controller, kind and
	// informer, steps, reads.
	window := regexp.MustCompile(`stale window 1: status's typed informer of Widget stale from step (\d+) to step (\d+), 5 reads, at the point of Widget ns/w v\d+ \(newest v\d+\)\n`)
	m := window.FindStringSubmatch(v.String())
	if m == nil || m[1] != m[2] {
		t.Fatalf("the violation does not name the window of one reconcile:\n%s", v)
	}
	rep, err := report.Read(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Violations) != 1 || !strings.Contains(rep.Violations[0].Text, m[0]) {
		t.Fatalf("the report does not name the window %q: %+v", m[0], rep.Violations)
	}
	ro := v.ReplayOptions()
	ro.Backend = explore.Server(server(t))
	again, err := explore.Run(t.Context(), s, ro)
	if err != nil {
		t.Fatal(err)
	}
	if again.Violation == nil || !strings.Contains(again.Violation.String(), m[0]) {
		t.Fatalf("replay %q does not name the window %q:\n%v", v.Seed, m[0], again.Violation)
	}
}

// A seed records every cached read's lag, as before windows: one written
// then, whose reads of one reconcile lag differently, replays as it did,
// and the replay rebuilds the windows from the lags: reads at one point
// are one window, and a read at a newer stale point opens another.
func TestStaleWindowReplaysPerReadSeed(t *testing.T) {
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "status", For: &testv1.Widget{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return &retryStatus{c: c} }}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Actions: []explore.Action{resize},
		// Broken at every steady state, so that the schedule is shown.
		Invariant: func(context.Context, client.Reader) error { return errors.New("shown") },
	}
	res, err := explore.Run(t.Context(), s, explore.Options{Backend: explore.Server(server(t)), Replay: "status:ns/w@0 !resize status:ns/w@2,2,1"})
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || res.Diverged != "" || v.Seed != "status:ns/w@0 !resize status:ns/w@2,2,1" {
		t.Fatalf("want the schedule replayed as it was, got diverged %q:\n%v", res.Diverged, v)
	}
	for _, want := range []string{
		"stale window 1: status's typed informer of Widget stale from step 3 to step 3, 2 reads, at the point of Widget ns/w v1 (newest v3)\n",
		"stale window 2: status's typed informer of Widget stale from step 3 to step 3, 1 read, at the point of Widget ns/w v2 (newest v3)\n",
		"read  Widget ns/w v2 (cache, STALE: newest is v3) in window 2\n",
	} {
		if !strings.Contains(v.String(), want) {
			t.Fatalf("want %q in:\n%s", want, v)
		}
	}
}
