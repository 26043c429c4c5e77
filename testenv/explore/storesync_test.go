package explore_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	toolscache "k8s.io/client-go/tools/cache"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// waitingScaler is the scaler of listlag_test.go (a Gizmo per Widget,
// created by generateName when a cached List shows none) behind a wait
// as Cluster API's controllers have (util/controller's consistency
// store): after its create it records the Gizmo's resourceVersion, and
// its next reconcile of the Widget first reads how far the Gizmo
// informer's store of mgr.GetCache() has synced; below the create, it
// requeues without reading anything. So its List holds the Gizmo it
// created, and it creates no second one.
type waitingScaler struct {
	scaler
	informers cache.Cache
	mu        sync.Mutex
	wrote     map[client.ObjectKey]string
	// waited counts the reconciles the wait requeued; passed, those that
	// went on after one was recorded.
	waited, passed *atomic.Int32
	// noWait skips the wait: the scaler's bug again.
	noWait bool
}

func (r *waitingScaler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	r.mu.Lock()
	wrote := r.wrote[req.NamespacedName]
	r.mu.Unlock()
	if wrote != "" && !r.noWait {
		synced, err := r.synced(ctx)
		if err != nil {
			return ctrl.Result{}, err
		}
		if synced < wrote {
			r.waited.Add(1)
			return ctrl.Result{RequeueAfter: 100 * time.Millisecond}, nil
		}
		r.passed.Add(1)
		r.mu.Lock()
		delete(r.wrote, req.NamespacedName)
		r.mu.Unlock()
	}
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	n, err := r.count(ctx, w)
	if err != nil || n > 0 {
		return ctrl.Result{}, err
	}
	g := &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, GenerateName: w.Name + "-", Labels: map[string]string{"widget": w.Name}}}
	if err := controllerutil.SetControllerReference(w, g, r.c.Scheme()); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.c.Create(ctx, g); err != nil {
		return ctrl.Result{}, err
	}
	r.mu.Lock()
	r.wrote[req.NamespacedName] = rvKey(g.ResourceVersion)
	r.mu.Unlock()
	return ctrl.Result{}, nil
}

// synced is how far the Gizmo informer's store has synced, as Cluster
// API's getStore and EnsureReady read it, as a sortable key.
func (r *waitingScaler) synced(ctx context.Context) (string, error) {
	inf, err := r.informers.GetInformer(ctx, &testv1.Gizmo{}, cache.BlockUntilSynced(false))
	if err != nil {
		return "", err
	}
	sii, ok := inf.(toolscache.SharedIndexInformer)
	if !ok {
		return "", fmt.Errorf("the Gizmo informer %T is no SharedIndexInformer", inf)
	}
	// Through an interface: client-go's cache.Store has the method only
	// from v0.35, and the explorer builds at the floor line (v0.34).
	st, ok := sii.GetStore().(interface{ LastStoreSyncResourceVersion() string })
	if !ok {
		return "", fmt.Errorf("the Gizmo informer's store %T has no LastStoreSyncResourceVersion", sii.GetStore())
	}
	rv := st.LastStoreSyncResourceVersion()
	if rv == "" {
		return "", nil // not synced: below any write
	}
	return rvKey(rv), nil
}

// rvKey is a resourceVersion (a number, on a real API server) as a key
// that sorts as the numbers do.
func rvKey(rv string) string {
	n, err := strconv.ParseUint(rv, 10, 64)
	if err != nil {
		panic(fmt.Sprintf("resourceVersion %q: %v", rv, err))
	}
	return fmt.Sprintf("%020d", n)
}

// waitingScenario is scalerOf's scenario with the waitingScaler, built by
// Setup on the manager (whose GetCache it keeps, as Cluster API's
// builder does), and an update of the Widget at any point (a Widget with
// more than one version, so that its reads can be stale).
func waitingScenario(waited, passed *atomic.Int32, noWait bool) explore.Scenario {
	s := scalerOf(scaler{})
	s.Reconcilers = nil
	s.Setup = func(mgr ctrl.Manager) error {
		r := &waitingScaler{scaler: scaler{c: mgr.GetClient()}, informers: mgr.GetCache(), wrote: map[client.ObjectKey]string{}, waited: waited, passed: passed, noWait: noWait}
		return ctrl.NewControllerManagedBy(mgr).Named("waiting").For(&testv1.Widget{}).Owns(&testv1.Gizmo{}).Complete(r)
	}
	s.Actions = []explore.Action{{Name: "label", Run: func(ctx context.Context, c client.Client) error {
		w := &testv1.Widget{}
		if err := c.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "w"}, w); err != nil {
			return err
		}
		w.Labels = map[string]string{"labelled": "yes"}
		return c.Update(ctx, w)
	}}}
	return s
}

// A controller that waits, as Cluster API's do, until the informer of
// what it created has synced past its create, reads that informer's store
// from mgr.GetCache(): the explorer answers it from its own cache model,
// at a point it chooses (one the informer's cached reads can be at, the
// drain's the newest). The waiting scaler then runs, its wait is met
// both ways (behind: it requeues; past: it goes on), no second Gizmo is
// created in any schedule, and the search still serves stale reads
// (its Lists and its Gets of the Widget) elsewhere. Before, the store's
// informer was a LackedCache and Run failed naming GetInformer.
func TestStoreWaitForOwnWriteRuns(t *testing.T) {
	var waited, passed atomic.Int32
	res, schedules, err := explore.RunSteps(t.Context(), waitingScenario(&waited, &passed, false), serverOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted {
		t.Fatalf("want the search exhausted without violation, got exhausted %t:\n%v", res.Exhausted, res.Violation)
	}
	stale := 0
	for _, steps := range schedules {
		if err := monotonic(steps); err != nil {
			t.Fatal(err)
		}
		for _, st := range steps {
			for _, rd := range st.Reads {
				if !rd.API && !rd.Uncached && (rd.Missing || rd.Version < rd.Newest) {
					stale++
				}
			}
		}
	}
	t.Logf("%d schedules, %d stale cached reads, %d reconciles waited, %d went on", len(schedules), stale, waited.Load(), passed.Load())
	if stale == 0 || waited.Load() == 0 || passed.Load() == 0 {
		t.Fatalf("in %d schedules: %d stale cached reads, %d reconciles waited, %d went on after a wait; want each > 0", len(schedules), stale, waited.Load(), passed.Load())
	}
	if len(res.NotExplored) != 0 { // its store was behind, its waits read it (notexplored_test.go)
		t.Fatalf("want everything run explored, got %q", res.NotExplored)
	}
}

// The same scaler without its wait, in the same search, creates a second
// Gizmo (TestLaggedListFindsDuplicateCreate's bug): the wait, met on the
// explorer's cache model, is what closes it.
func TestStoreWaitOffFindsDuplicate(t *testing.T) {
	var waited, passed atomic.Int32
	res, err := explore.Run(t.Context(), waitingScenario(&waited, &passed, true), serverOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if v := res.Violation; v == nil || v.Invariant != explore.InvariantUser || !strings.Contains(v.Message, "2 Gizmos") {
		t.Fatalf("want the user invariant broken by 2 Gizmos, got:\n%v", v)
	}
}
