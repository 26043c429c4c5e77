package explore_test

import (
	"bytes"
	"context"
	"strings"
	"sync/atomic"
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

// counting is rateLimited counting, over the whole search, the
// reconciles its limiter deferred and those that went on.
type counting struct {
	rateLimited
	deferred, went *atomic.Int32
}

func (r *counting) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	res, err := r.rateLimited.Reconcile(ctx, req)
	if res.RequeueAfter > 0 {
		r.deferred.Add(1)
	} else {
		r.went.Add(1)
	}
	return res, err
}

// limitedSearch explores TestDrainWaitsOutARateLimitedReconcile's Widget
// controller, its limiter at interval on the real clock (0: none), and
// returns the Result, the progress lines, and what the controller
// counted.
func limitedSearch(t *testing.T, interval time.Duration) (res *explore.Result, progress string, deferred, went int32) {
	t.Helper()
	var d, w atomic.Int32
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "widget", For: &testv1.Widget{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler {
				return &counting{rateLimited: rateLimited{c: c, interval: interval, last: map[types.NamespacedName]time.Time{}}, deferred: &d, went: &w}
			}}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Actions: []explore.Action{{Name: "resize", Run: func(ctx context.Context, c client.Client) error {
			return c.Patch(ctx, &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}, Spec: testv1.WidgetSpec{Size: 2}}, client.Merge)
		}}},
	}
	var out bytes.Buffer
	o := serverOptions(t)
	o.Depth, o.Progress = 2, &out
	res, err := explore.Run(t.Context(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted {
		t.Fatalf("want no violation, every schedule run; got %d schedules, exhausted %v:\n%v", res.Schedules, res.Exhausted, res.Violation)
	}
	return res, out.String(), d.Load(), w.Load()
}

// A controller that rate-limits itself on the real clock, as Cluster
// API's ReconcilerRateLimiting does (1 s per object), returns a requeue
// having read nothing when the schedule runs it again within the second:
// what it would do there runs only in the drain, which waits the delay
// out. The search finds no violation, but that rests on no schedule
// where such a reconcile ran: the Result says so, with the counts, and
// the verdict and the progress summary say Unknown. Before, the Result
// said "no violation" alone.
func TestNotExploredNamesReconcilesDeferredToTheDrain(t *testing.T) {
	res, progress, deferred, went := limitedSearch(t, time.Second)
	if len(res.NotExplored) != 1 {
		t.Fatalf("want one class not explored, the widget's deferrals; got %q", res.NotExplored)
	}
	n := res.NotExplored[0]
	// Every reconcile of the search is a chosen or a drain step of a
	// schedule it ran (no crash, no replay): the controller's own counts.
	if n.Reconciler != "widget" || n.Store != "" || n.Deferred == 0 || n.Deferred > n.Chosen || n.Ran != int(went) || n.InDrain > n.Ran {
		t.Fatalf("got %+v; the controller deferred %d reconciles and went on in %d", n, deferred, went)
	}
	if v := res.Verdict(); !strings.HasPrefix(v, "no violation where explored; Unknown: not explored: widget deferred ") {
		t.Errorf("verdict %q", v)
	}
	if !strings.Contains(progress, "no violation where explored") || !strings.Contains(progress, "Unknown: "+n.String()) {
		t.Errorf("the progress summary does not say Unknown for %q:\n%s", n, progress)
	}
	t.Logf("%s (the controller deferred %d, went on %d, in %d schedules)", n, deferred, went, res.Schedules)
}

// The same controller without its limiter defers nothing: the search
// explored what it ran, and says "no violation" alone.
func TestNotExploredIsEmptyWithoutDeferrals(t *testing.T) {
	res, progress, deferred, _ := limitedSearch(t, 0)
	if deferred != 0 || len(res.NotExplored) != 0 || res.Verdict() != "no violation" {
		t.Fatalf("deferred %d; want nothing not explored, got %q (%s)", deferred, res.NotExplored, res.Verdict())
	}
	if strings.Contains(progress, "Unknown") || !strings.Contains(progress, ", no violation,") {
		t.Errorf("the progress summary:\n%s", progress)
	}
}

// The waiting scaler of storesync_test.go reads its store only in the
// reconcile after its create: at Depth 1 the create is the chosen step
// and every store read is in the drain, whose store is at the newest
// point, so the wait was never put where the store is behind; the
// Result says so. So are its cached reads of the Widget whose status it
// wrote: an older version was there to serve only in the drain, which
// serves the newest, so what it does on a stale Widget was never seen;
// before, the Result named the store alone. At Depth 3
// (TestStoreWaitForOwnWriteRuns) both were behind in some schedule, and
// the Result says nothing.
func TestNotExploredNamesAStoreNeverBehind(t *testing.T) {
	var waited, passed atomic.Int32
	o := serverOptions(t)
	o.Depth = 1
	res, err := explore.Run(t.Context(), waitingScenario(&waited, &passed, false), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted {
		t.Fatalf("want the search exhausted without violation, got exhausted %t:\n%v", res.Exhausted, res.Violation)
	}
	neverBehind(t, res)
	if waited.Load() != 0 {
		t.Fatalf("%d reconciles waited", waited.Load())
	}
}

// neverBehind checks that res, of the waiting scaler's schedules of one
// chosen reconcile (its create), says it did not explore the Gizmo store
// and the Widget's cached reads: each read behind the newest only in the
// drain, which serves the newest.
func neverBehind(t *testing.T, res *explore.Result) {
	t.Helper()
	if len(res.NotExplored) != 2 {
		t.Fatalf("want two classes not explored, the Gizmo store and the Widget's cached reads; got %q", res.NotExplored)
	}
	store, cached := res.NotExplored[0], res.NotExplored[1]
	if store.Reconciler != "waiting" || store.Store != "Gizmo" || store.StoreReads == 0 || store.StoreDrain != store.StoreReads {
		t.Errorf("the store: got %+v", store)
	}
	if cached.Reconciler != "waiting" || cached.Cached != "Widget" || cached.CachedOlder == 0 || cached.CachedOlderDrain != cached.CachedOlder || cached.CachedReads < cached.CachedOlder {
		t.Errorf("the cached reads: got %+v", cached)
	}
	t.Log(res.Verdict())
}

// A replay says Unknown for what its schedule did not explore, as a
// search does: the waiting scaler's schedule of one chosen reconcile (its
// create) reads its store only in the drain, at the newest point, so
// the wait was not explored there. Before, a replay's NotExplored was
// empty and its verdict a plain "no violation".
func TestNotExploredByAReplay(t *testing.T) {
	var waited, passed atomic.Int32
	o := explore.Options{Backend: explore.Server(server(t)), Replay: "waiting:ns/w"}
	res, err := explore.Run(t.Context(), waitingScenario(&waited, &passed, false), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || res.Diverged != "" || res.Schedules != 2 {
		t.Fatalf("want the replay run twice without violation, got %d runs, diverged %q:\n%v", res.Schedules, res.Diverged, res.Violation)
	}
	neverBehind(t, res)
	if v := res.Verdict(); !strings.HasPrefix(v, "no violation where explored; Unknown: not explored: the store of the Gizmo informer") {
		t.Errorf("verdict %q", v)
	}
}
