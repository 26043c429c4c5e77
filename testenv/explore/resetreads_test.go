package explore_test

import (
	"context"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// The reset between schedules reads nothing the book holds: it deletes
// each object at the version the book holds (the server refuses the
// delete if it holds another), and the next schedule takes what the
// reset deleted for absent without reading it; the scenario's objects
// it creates it takes as the create's answer says the server stored
// them. Of four schedules of the correct reconciler, each creating the
// Widget and the reconciler the Gizmo, only the first reads the Gizmo
// (absent), and nothing reads the Widget (26aa819 read each 8 times: in
// every reset, and the Gizmo before every create, the Widget after it).
func TestResetReadsNothingTheBookHolds(t *testing.T) {
	srv := &countingServer{env: server(t)}
	const schedules = 4
	res, err := explore.Run(t.Context(), gizmoScenario(gizmoReconciler{}),
		explore.Options{Backend: explore.Server(srv), Seed: 1, Schedules: schedules, Depth: 2, Budget: searchBound})
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || res.Schedules != schedules {
		t.Fatalf("want %d schedules without violation, got %d:\n%v", schedules, res.Schedules, res.Violation)
	}
	if got := srv.count("get Gizmo"); got != 1 {
		t.Errorf("the Gizmo was read %d times, want once (the first schedule's read of it absent)", got)
	}
	if got := srv.count("get Widget"); got != 0 {
		t.Errorf("the Widget was read %d times, want none (the create's answer is what the server stored)", got)
	}
	if got := srv.count("delete Gizmo"); got != schedules {
		t.Errorf("the Gizmo was deleted %d times, want %d (each reset and the cleanup)", got, schedules)
	}
}

// A write the book does not hold (here an action's, through a client of
// its own: a finalizer on the Gizmo) makes the reset's delete at the
// book's version fail; the reset then reads the object, removes its
// finalizers and deletes it, so every schedule still starts clean and
// the search ends with nothing left on the server.
func TestResetUndoesWhatTheBookMissed(t *testing.T) {
	env := server(t)
	held := 0
	outside := explore.Action{Name: "hold-gizmo", Run: func(ctx context.Context, _ client.Client) error {
		g := &testv1.Gizmo{}
		patch := client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"finalizers":["test.statuspatch.dev/hold"]}}`))
		g.Namespace, g.Name = "ns", "w"
		err := env.Client.Patch(ctx, g, patch)
		if err == nil {
			held++
		}
		return client.IgnoreNotFound(err)
	}}
	const schedules = 6
	res, err := explore.Run(t.Context(), gizmoScenario(gizmoReconciler{}, outside),
		explore.Options{Backend: explore.Server(env), Seed: 2, Schedules: schedules, Depth: 3, Budget: searchBound})
	if err != nil {
		t.Fatal(err)
	}
	if res.Schedules != schedules || held == 0 {
		t.Fatalf("want %d schedules, the Gizmo held behind the book's back in some; got %d, held in %d", schedules, res.Schedules, held)
	}
	for _, o := range []client.Object{&testv1.Widget{}, &testv1.Gizmo{}} {
		if err := env.Client.Get(t.Context(), client.ObjectKey{Namespace: "ns", Name: "w"}, o); !apierrors.IsNotFound(err) {
			t.Errorf("%T ns/w after the search: want NotFound, got %v (finalizers %v)", o, err, o.GetFinalizers())
		}
	}
}

// The reset sends its deletes at once: no object's reset waits for
// another's, and a server answers several requests at once. Each reset
// of fiveMaker's schedules deletes the Widget and its five Gizmos; every
// delete waits (up to resetBarrier) until all six are in flight.
func TestResetDeletesAtOnce(t *testing.T) {
	srv := &barrierDeletes{Client: server(t).Client, want: 6, all: make(chan struct{})}
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "five", For: &testv1.Widget{}, Owns: []client.Object{&testv1.Gizmo{}},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return &fiveMaker{c: c} }}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
	}
	res, err := explore.Run(t.Context(), s, explore.Options{Backend: explore.Server(srv), Seed: 1, Schedules: 2, Depth: 2, Budget: searchBound})
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || res.Schedules != 2 {
		t.Fatalf("want 2 schedules without violation, got %d:\n%v", res.Schedules, res.Violation)
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if srv.deletes != 12 || srv.most != 6 {
		t.Errorf("%d deletes, at most %d at once; want 12 (two resets of six objects), 6 at once", srv.deletes, srv.most)
	}
}

// resetBarrier bounds a delete's wait for the others of its reset: one
// that waits this long was sent alone.
const resetBarrier = 2 * time.Second

// barrierDeletes holds each Delete until want are in flight, and counts
// them and the most in flight at once; after a wait that timed out it
// holds none.
type barrierDeletes struct {
	client.Client
	want int

	mu                      sync.Mutex
	inflight, most, deletes int
	all                     chan struct{} // closed once want are in flight
	alone                   bool
}

func (c *barrierDeletes) ServerClient() client.Client { return c }

func (c *barrierDeletes) Delete(ctx context.Context, obj client.Object, opts ...client.DeleteOption) error {
	c.mu.Lock()
	c.inflight++
	c.deletes++
	c.most = max(c.most, c.inflight)
	all, alone := c.all, c.alone
	if c.inflight == c.want {
		close(c.all)
		c.all = make(chan struct{})
	}
	c.mu.Unlock()
	if !alone {
		select {
		case <-all:
		case <-time.After(resetBarrier):
			c.mu.Lock()
			c.alone = true
			c.mu.Unlock()
		}
	}
	err := c.Client.Delete(ctx, obj, opts...)
	c.mu.Lock()
	c.inflight--
	c.mu.Unlock()
	return err
}
