package explore_test

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// confirmTwice adds "ctrl" to its Widget's status.items once the Widget
// has a size, but only after it has read the same version of it in two
// reconciles in a row (it requeues after the first, to let the spec
// settle), with a merge patch computed from that read: blind, or, with
// lock, under the read's resourceVersion. Blind, it is wrong when both
// reads are stale at the same version, as when the informer lags across
// the requeue: the patch drops what the newer versions added to the
// items. A fresh read in either reconcile, or a different stale version
// in each, makes it requeue again until two reads agree.
type confirmTwice struct {
	c    client.Client
	lock bool
	seen map[types.NamespacedName]string
}

func (r *confirmTwice) Reconcile(ctx context.Context, req reconcile.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if w.Spec.Size == 0 || slices.Contains(w.Status.Items, "ctrl") {
		return ctrl.Result{}, nil
	}
	if r.seen[req.NamespacedName] != w.ResourceVersion {
		r.seen[req.NamespacedName] = w.ResourceVersion
		return ctrl.Result{RequeueAfter: time.Second}, nil
	}
	delete(r.seen, req.NamespacedName)
	base := w.DeepCopy()
	w.Status.Items = append(w.Status.Items, "ctrl")
	patch := client.MergeFrom(base)
	if r.lock {
		patch = client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})
	}
	return ctrl.Result{}, r.c.Status().Patch(ctx, w, patch)
}

// provision is the user giving the Widget a size, then another client
// adding "user" to its items: two versions in one step, so that a
// reconcile after it reads either.
var provision = explore.Action{Name: "provision", Run: func(ctx context.Context, c client.Client) error {
	w := &testv1.Widget{}
	if err := c.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "w"}, w); err != nil {
		return err
	}
	w.Spec.Size = 5
	if err := c.Update(ctx, w); err != nil {
		return err
	}
	w.Status.Items = append(w.Status.Items, "user")
	return c.Status().Update(ctx, w)
}}

func confirmTwiceScenario(lock bool) explore.Scenario {
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "confirm", For: &testv1.Widget{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler {
				return &confirmTwice{c: c, lock: lock, seen: map[types.NamespacedName]string{}}
			}}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Actions: []explore.Action{provision},
		Invariant: func(ctx context.Context, r client.Reader) error {
			w := &testv1.Widget{}
			if err := r.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "w"}, w); err != nil {
				return err
			}
			if w.Spec.Size > 0 && !slices.Contains(w.Status.Items, "user") {
				return errors.New(`the user's "user" item is lost`)
			}
			return nil
		},
	}
}

// spanOptions bound the search to one stale window per schedule: the
// bug takes one window that spans two reconciles, or two windows of one
// reconcile each. confirmTwice keeps no observedGeneration.
func spanOptions(t *testing.T) explore.Options {
	return explore.Options{Backend: explore.Server(server(t)), Depth: 3, StaleReads: 1, Budget: searchBound, StopAtFirst: true,
		Disable: []string{explore.InvariantObservedGenerationStuck}}
}

// With one unit of staleness, the explorer finds confirmTwice's lost
// item: the Widget's informer lags across the requeue, so both reconciles
// after provision read the version before "user", in one stale window
// from the first to the second (issue 73). With a window closed at the
// end of its reconcile, the second stale read was a second unit, beyond
// StaleReads 1. The report names the window from step to step, and the
// replay of its seed rebuilds it.
func TestStaleWindowSpansReconciles(t *testing.T) {
	s := confirmTwiceScenario(false)
	res, err := explore.Run(t.Context(), s, spanOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil {
		t.Fatalf("no violation in %d schedules at %s", res.Schedules, res.Bounds)
	}
	t.Logf("found after %d schedules:\n%s", v.Schedules, v)
	if !strings.Contains(v.String(), `the user's "user" item is lost`) {
		t.Errorf("want the user's item lost:\n%s", v)
	}
	window := regexp.MustCompile(`stale window 1: confirm's typed informer of Widget stale from step (\d+) to step (\d+), 2 reads, at the point of Widget ns/w v2 \(newest v3\)\n`)
	m := window.FindStringSubmatch(v.String())
	if m == nil {
		t.Fatalf("the violation does not name a window over two reads:\n%s", v)
	}
	from, _ := strconv.Atoi(m[1])
	to, _ := strconv.Atoi(m[2])
	if from >= to {
		t.Fatalf("the window is of one reconcile (steps %d to %d):\n%s", from, to, v)
	}
	for _, i := range []int{from, to} {
		st := v.Steps[i-1]
		if len(st.Windows) != 1 || st.Windows[0].FromStep != from || st.Windows[0].ToStep != to || len(st.Reads) != 1 || st.Reads[0].Window != 1 {
			t.Errorf("step %d does not list the window and read through it: %+v", i, st)
		}
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

// No false alarm: with the patch under the read's resourceVersion, the
// same search, windows across reconciles included, finds nothing: the
// stale patch is refused (409) and the next reconciles read on.
func TestStaleWindowSpansReconcilesLockedNoAlarm(t *testing.T) {
	res, err := explore.Run(t.Context(), confirmTwiceScenario(true), spanOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted {
		t.Fatalf("want no violation and the space exhausted, got %d schedules, exhausted %v:\n%v", res.Schedules, res.Exhausted, res.Violation)
	}
	t.Logf("no violation in %d schedules (%d pruned)", res.Schedules, res.Pruned)
}

// A window is its process's: a leader change ends it. Replayed, the
// seed's last read, of the version the window two reconciles of the old
// leader read through served, is the new leader's own window, opened in
// its step, not the old one's.
func TestStaleWindowEndsAtLeaderChange(t *testing.T) {
	seed := "!provision confirm:ns/w@1 confirm:ns/w@1#1L confirm:ns/w@2"
	res, err := explore.Run(t.Context(), confirmTwiceScenario(false), explore.Options{Backend: explore.Server(server(t)), Replay: seed})
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || res.Diverged != "" || v.Seed != seed {
		t.Fatalf("want %q replayed as it was, got diverged %q:\n%v", seed, res.Diverged, v)
	}
	for _, want := range []string{
		"stale window 1: confirm's typed informer of Widget stale from step 2 to step 3, 2 reads, at the point of Widget ns/w v2 (newest v3)\n",
		"stale window 1: confirm's typed informer of Widget stale from step 4 to step 4, 1 read, at the point of Widget ns/w v2 (newest v4)\n",
	} {
		if !strings.Contains(v.String(), want) {
			t.Fatalf("want %q in:\n%s", want, v)
		}
	}
}

// At the default bounds (deepening level 0) a window ends with its
// reconcile, as before windows spanned reconciles: the same bug is found
// there with two windows, one per reconcile, within their two units.
func TestStaleWindowOfOneReconcileAtTheDefaults(t *testing.T) {
	res, err := explore.Run(t.Context(), confirmTwiceScenario(false), explore.Options{Backend: explore.Server(server(t)), Budget: searchBound, StopAtFirst: true,
		Disable: []string{explore.InvariantObservedGenerationStuck}})
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || v.Bounds.Level != 0 || v.Bounds.Faults {
		t.Fatalf("want the lost item found at deepening level 0, got at %s:\n%v", res.Bounds, v)
	}
	windows := 0
	for _, st := range v.Steps {
		for _, w := range st.Windows {
			windows++
			if w.FromStep != w.ToStep {
				t.Errorf("a window spans steps %d to %d at the default bounds:\n%s", w.FromStep, w.ToStep, v)
			}
		}
	}
	if windows != 2 {
		t.Errorf("want two windows of one reconcile each, got %d:\n%s", windows, v)
	}
}
