package explore_test

import (
	"context"
	"fmt"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// twiceLister lists its Widget's Gizmos twice, creates one, and lists
// them again.
type twiceLister struct{ c client.Client }

func (r *twiceLister) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var l testv1.GizmoList
	for range 2 {
		if err := r.c.List(ctx, &l, client.InNamespace(req.Namespace)); err != nil {
			return ctrl.Result{}, err
		}
	}
	g := &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: req.Namespace, Name: req.Name}}
	if err := r.c.Create(ctx, g); client.IgnoreAlreadyExists(err) != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.c.List(ctx, &l, client.InNamespace(req.Namespace))
}

// A cached List of a scope (kind, namespace, labels) the schedule has
// listed from the server is served from the book, which holds every object
// it selects since (informers.Floors): twiceLister lists three times a
// reconcile, one List of each schedule goes to the server (the first).
// After the first schedule it asks for one at least as new as the
// previous schedule's newest Gizmo revision, whose empty answer is what
// the newest holds (Floors.AfterReset; srv.check compares it with a List of the
// newest). On main every schedule's asked for the newest. Answered where
// the watch cache has not reached the reset's deletion of the previous
// schedule's Gizmo (lagged, listTerms), it holds that Gizmo, and the
// explorer asks for the newest.
func TestRepeatedListServedFromTheBook(t *testing.T) {
	for _, tc := range []struct {
		lagged bool
		want   string
	}{
		{false, "[newest at-least at-least]"},
		{true, "[newest at-least newest at-least newest]"},
	} {
		t.Run(fmt.Sprintf("lagged=%v", tc.lagged), func(t *testing.T) {
			srv := &listTerms{Client: server(t).Client, lagged: tc.lagged}
			s := explore.Scenario{
				Reconcilers: []explore.Reconciler{{Name: "lister", For: &testv1.Widget{},
					New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return &twiceLister{c: c} }}},
				Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
				Actions: []explore.Action{resize},
			}
			res, err := explore.Run(t.Context(), s, explore.Options{Backend: explore.Server(srv), Seed: 1, Schedules: 3, Depth: 3, Budget: searchBound,
				Disable: []string{explore.InvariantObservedGenerationStuck}}) // it records no observedGeneration
			if err != nil {
				t.Fatal(err)
			}
			if res.Violation != nil || res.Schedules != 3 {
				t.Fatalf("want 3 schedules without violation, got %d:\n%v", res.Schedules, res.Violation)
			}
			srv.mu.Lock()
			defer srv.mu.Unlock()
			if fmt.Sprint(srv.terms) != tc.want {
				t.Errorf("the Lists sent asked for %v, want %s", srv.terms, tc.want)
			}
			srv.check(t)
		})
	}
}

// The record invariant's List in a steady state, and every other, asks
// for one at least as new as the schedule's newest write of the kind,
// never less: after a delete, whose answer names no revision, for the
// newest, until a later write's answer or a List of the newest says
// which revision holds it. The Gizmo search with its record (Widget
// status.plan.id, a Gizmo's UID), the Gizmo deleted and replaced
// anywhere: every List at least as new holds what a List of the newest
// sent right after it holds, none asks for the newest where the revision
// of the schedule's last Gizmo write is known (on main, every record
// check did), and the same verdicts: none for the correct reconciler,
// the deleted Gizmo's record for the one that trusts its record (its
// List after the delete asks for the newest).
func TestRecordListAtLeastAsNewAsTheWrites(t *testing.T) {
	for _, tc := range []struct {
		name   string
		s      explore.Scenario
		want   string // the violation's invariant, "" for none
		newest bool   // some List after a delete must ask for the newest
	}{
		{"correct", gizmoScenario(gizmoReconciler{}, replaceGizmo, deleteGizmo, resize), "", false},
		{"trusts its record", gizmoScenario(gizmoReconciler{trustRecord: true}, deleteGizmo), explore.InvariantRecordLive, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := &listTerms{Client: server(t).Client}
			res, err := explore.Run(t.Context(), tc.s, explore.Options{Backend: explore.Server(srv), Seed: 3, Schedules: 20, Depth: 4,
				Budget: searchBound, StopAtFirst: true})
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if res.Violation != nil {
				got = res.Violation.Invariant
			}
			if got != tc.want {
				t.Fatalf("violation %q, want %q:\n%v", got, tc.want, res.Violation)
			}
			srv.mu.Lock()
			defer srv.mu.Unlock()
			atLeast := 0
			for _, term := range srv.terms {
				if term == "at-least" {
					atLeast++
				}
			}
			newest := len(srv.terms) - atLeast
			t.Logf("%d schedules: %d Gizmo Lists at least as new, %d of the newest (%d after a delete)", res.Schedules, atLeast, newest, newest-srv.needless)
			if atLeast == 0 {
				t.Error("no List asked for one at least as new")
			}
			if tc.newest && newest-srv.needless == 0 {
				t.Error("no List after a delete")
			}
			if srv.needless > 0 {
				t.Errorf("%d of %d Gizmo Lists asked for the newest where the schedule knew its last write's revision", srv.needless, len(srv.terms))
			}
			srv.check(t)
		})
	}
}
