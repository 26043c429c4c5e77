package explore_test

import (
	"context"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// pauseWidget is another controller pausing the Widget: status.phase
// "Paused", under the lock, from a fresh read.
var pauseWidget = explore.Action{Name: "pause", Run: func(ctx context.Context, c client.Client) error {
	w := &testv1.Widget{}
	if err := c.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "w"}, w); err != nil {
		return err
	}
	base := w.DeepCopy()
	w.Status.Phase = "Paused"
	return c.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
}}

// phaser keeps a Widget's status.phase "Running" unless another
// controller paused it, and its observedGeneration. Its status helper
// reads the Widget again before each try, through the API reader (is it
// still there?), and after the write (did it land?), as retry helpers
// do: those reads are newer than the one the decision was computed from.
type phaser struct {
	c   client.Client
	api client.Reader
	// locked: the write carries the read's resourceVersion, and a 409
	// makes the helper read again and decide again; otherwise the
	// decision goes out as a blind merge patch of the object it was
	// computed from.
	locked bool
}

func (r *phaser) decide(w *testv1.Widget) {
	w.Status.ObservedGeneration = w.Generation
	if w.Status.Phase != "Paused" {
		w.Status.Phase = "Running"
	}
}

func (r *phaser) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := w.DeepCopy()
	r.decide(w)
	for range 3 {
		if err := r.api.Get(ctx, req.NamespacedName, &testv1.Widget{}); err != nil {
			return ctrl.Result{}, client.IgnoreNotFound(err)
		}
		opt := client.MergeFrom(base)
		if r.locked {
			opt = client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})
		}
		err := r.c.Status().Patch(ctx, w, opt)
		if !r.locked || !apierrors.IsConflict(err) {
			if err != nil {
				return ctrl.Result{}, err
			}
			break
		}
		// 409: read again, decide again.
		if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
			return ctrl.Result{}, client.IgnoreNotFound(err)
		}
		base = w.DeepCopy()
		r.decide(w)
	}
	return ctrl.Result{}, r.c.Get(ctx, req.NamespacedName, &testv1.Widget{})
}

func phaserScenario(locked bool) explore.Scenario {
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "phaser", For: &testv1.Widget{},
			New: func(c client.Client, api client.Reader) reconcile.Reconciler {
				return &phaser{c: c, api: api, locked: locked}
			}}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Actions: []explore.Action{pauseWidget},
	}
}

// A write is judged by the read it was computed from, not by the
// reconcile's newest read: a blind status merge patch computed from a
// stale read, sent after a newer read of the same object, loses the
// pause it overwrites, and the report names that patch and its line; the
// same helper under the lock, reading again and deciding again on a 409,
// loses nothing.
func TestLostWriteJudgedByTheReadItWasComputedFrom(t *testing.T) {
	res, err := explore.Run(t.Context(), phaserScenario(false), serverOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || v.Invariant != explore.InvariantLostWrite || !strings.Contains(v.Message, "status.phase written by step") {
		t.Fatalf("blind patch after a newer read: want %s on status.phase, got:\n%v", explore.InvariantLostWrite, v)
	}
	t.Logf("found after %d schedules:\n%s", v.Schedules, v)
	// The report points at the fix: the write's kind and its line.
	namesWrite(t, v.Message, "blind merge patch of status", "writebase_test.go", "r.c.Status().Patch(ctx, w, opt)")

	res, err = explore.Run(t.Context(), phaserScenario(true), serverOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted {
		t.Fatalf("locked patch, decided again on 409: want the search exhausted without violation, got exhausted %t:\n%v", res.Exhausted, res.Violation)
	}
	t.Logf("locked: %d schedules (%d pruned), exhausted", res.Schedules, res.Pruned)
}

// namesWrite checks that msg names a write of kind at a line of file (in
// this directory) that holds call.
func namesWrite(t *testing.T, msg, kind, file, call string) {
	t.Helper()
	m := regexp.MustCompile(`, by an? ` + regexp.QuoteMeta(kind) + ` at explore/` + regexp.QuoteMeta(file) + `:(\d+)`).FindStringSubmatch(msg)
	if m == nil {
		t.Fatalf("the report does not name the %s in %s and its line: %q", kind, file, msg)
	}
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := strconv.Atoi(m[1])
	if lines := strings.Split(string(src), "\n"); n < 1 || n > len(lines) || !strings.Contains(lines[n-1], call) {
		t.Fatalf("%s:%d is not the write %s", file, n, call)
	}
}

// A violation a write caused names that write, its kind and the line
// that sent it: an old leader's blind status patch delivered late (the
// line that sent it, before the crash), and a delete of an own creation
// after a stale read.
func TestViolationNamesTheWrite(t *testing.T) {
	o := inFlightOptions(t)
	o.InFlightWrite, o.Replay = true, "widget:ns/w@0,0#1Z"
	res, err := explore.Run(t.Context(), provisionerScenario(false), o)
	if err != nil || res.Violation == nil || res.Violation.Invariant != explore.InvariantLostWrite {
		t.Fatalf("in-flight write: want %s, got %v, %v", explore.InvariantLostWrite, err, res.Violation)
	}
	namesWrite(t, res.Violation.Message, "blind merge patch of status", "zombie_test.go", "r.c.Status().Patch(ctx, w, patch)")

	res, err = explore.Run(t.Context(), gizmoScenario(gizmoReconciler{staleParent: true}), serverOptions(t))
	if err != nil || res.Violation == nil || res.Violation.Invariant != explore.InvariantOwnDelete {
		t.Fatalf("stale parent: want %s, got %v, %v", explore.InvariantOwnDelete, err, res.Violation)
	}
	namesWrite(t, res.Violation.Message, "delete", "builtin_test.go", "r.c.Delete(ctx, g,")
}

// The bug of issue 73: after a leader change, the new leader's first read
// is older than the old leader's last write; its blind status patch sets
// observedGeneration back, after a newer read through the API reader.
// Found by observedGeneration, naming the patch; and its schedule, with
// every invariant, as a lost write too (judged by the read the patch was
// computed from: by its step's newest read, it escaped). Under the lock,
// deciding again on a 409, nothing is found.
func TestNewLeaderSetsObservedGenerationBack(t *testing.T) {
	s := phaserScenario(false)
	s.Actions = []explore.Action{resize}
	o := serverOptions(t)
	o.Crashes, o.LeaderChange = 1, true
	o.Disable = []string{explore.InvariantLostWrite}
	res, err := explore.Run(t.Context(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || v.Invariant != explore.InvariantObservedGeneration || !strings.Contains(v.Message, "went backwards") {
		t.Fatalf("want %s, got:\n%v", explore.InvariantObservedGeneration, v)
	}
	t.Logf("found after %d schedules:\n%s", v.Schedules, v)
	namesWrite(t, v.Message, "blind merge patch of status", "writebase_test.go", "r.c.Status().Patch(ctx, w, opt)")

	o.Disable, o.Replay = nil, v.Seed
	res, err = explore.Run(t.Context(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	lw := res.Violation
	if lw == nil || lw.Invariant != explore.InvariantLostWrite || !strings.Contains(lw.Message, "status.observedGeneration written by step") ||
		!lw.Broke(explore.InvariantObservedGeneration) {
		t.Fatalf("replay %q: want %s of status.observedGeneration, and %s, got:\n%v", v.Seed, explore.InvariantLostWrite, explore.InvariantObservedGeneration, lw)
	}
	namesWrite(t, lw.Message, "blind merge patch of status", "writebase_test.go", "r.c.Status().Patch(ctx, w, opt)")

	locked := phaserScenario(true)
	locked.Actions = []explore.Action{resize}
	o.Replay = ""
	res, err = explore.Run(t.Context(), locked, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted {
		t.Fatalf("locked, with a leader change: want the search exhausted without violation, got exhausted %t:\n%v", res.Exhausted, res.Violation)
	}
	t.Logf("locked: %d schedules (%d pruned), exhausted", res.Schedules, res.Pruned)
}
