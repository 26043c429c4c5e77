package explore_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// seenLister is twiceLister that notes the Gizmos each reconcile's first
// List held.
type seenLister struct {
	twiceLister
	mu   *sync.Mutex
	seen *[]string
}

func (r *seenLister) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var l testv1.GizmoList
	if err := r.c.List(ctx, &l, client.InNamespace(req.Namespace)); err != nil {
		return ctrl.Result{}, err
	}
	var names []string
	for _, g := range l.Items {
		names = append(names, g.Name)
	}
	r.mu.Lock()
	*r.seen = append(*r.seen, fmt.Sprint(names))
	r.mu.Unlock()
	return r.twiceLister.Reconcile(ctx, req)
}

// The first List of a scope after the reset takes the answer of a List at
// least as new as the previous schedule's writes only when it is empty
// (informers.Floors.AfterReset). Here a Gizmo the book never held is left in the scope by a
// writer outside the explorer's clients (the scenario's invariant, at the
// end of every schedule, a new name each time): the reset cannot delete it, the List at least
// as new holds it, and the List asks for the newest; every schedule's
// first reconcile sees it but the first's. (Serving that List from the
// book, which the reset left empty, would not: the reconciler would see
// no Gizmo.) Either answer of the List at least as new, past the reset's
// deletions or before them (lagged, listTerms: a watch cache that has not
// reached them), holds a Gizmo, and is not served.
func TestResetListNotEmptyAsksTheNewest(t *testing.T) {
	for _, lagged := range []bool{false, true} {
		t.Run(fmt.Sprintf("lagged=%v", lagged), func(t *testing.T) { resetListNotEmpty(t, lagged) })
	}
}

func resetListNotEmpty(t *testing.T, lagged bool) {
	env := server(t)
	srv := &listTerms{Client: env.Client, lagged: lagged}
	var mu sync.Mutex
	var seen []string
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "lister", For: &testv1.Widget{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler {
				return &seenLister{twiceLister: twiceLister{c: c}, mu: &mu, seen: &seen}
			}}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Invariant: func(ctx context.Context, _ client.Reader) error {
			mu.Lock()
			seen = append(seen, "end")
			n := len(seen)
			mu.Unlock()
			g := &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: fmt.Sprintf("outside-%d", n)}}
			return env.Client.Create(ctx, g)
		},
	}
	// The last schedule's Gizmo is there after Run, made outside the
	// book: a later test on the shared server would find it there before
	// its search, and the reset restore it if a step deleted it.
	t.Cleanup(func() {
		var l testv1.GizmoList
		if err := env.Client.List(context.Background(), &l, client.InNamespace("ns")); err != nil {
			t.Errorf("listing the Gizmos left: %v", err)
		}
		for i := range l.Items {
			if strings.HasPrefix(l.Items[i].Name, "outside-") {
				if err := env.Client.Delete(context.Background(), &l.Items[i]); client.IgnoreNotFound(err) != nil {
					t.Errorf("deleting Gizmo ns/%s: %v", l.Items[i].Name, err)
				}
			}
		}
	})
	const schedules = 3
	res, err := explore.Run(t.Context(), s, explore.Options{Backend: explore.Server(srv), Seed: 1, Schedules: schedules, Depth: 2, Budget: searchBound,
		Disable: []string{explore.InvariantObservedGenerationStuck}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || res.Schedules != schedules {
		t.Fatalf("want %d schedules without violation, got %d:\n%v", schedules, res.Schedules, res.Violation)
	}
	mu.Lock()
	defer mu.Unlock()
	// Each schedule's reconciles, then its "end"; the first reconcile
	// after an "end" is the next schedule's first.
	first := true
	for i, names := range seen {
		switch {
		case names == "end":
			first = true
		case first && i > 0 && names != fmt.Sprintf("[outside-%d]", i):
			t.Errorf("a schedule's first reconcile listed %s, want the Gizmo outside the book (all: %v)", names, seen)
		default:
			first = false
		}
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if want := "[newest at-least newest at-least newest]"; fmt.Sprint(srv.terms) != want {
		t.Errorf("the Lists sent asked for %v, want %s", srv.terms, want)
	}
	srv.check(t)
}
