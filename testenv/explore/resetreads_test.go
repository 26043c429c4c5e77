package explore_test

import (
	"context"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// The reset between schedules reads nothing the book holds: it deletes
// each object at the version the book holds (the server refuses the
// delete if it holds another), and the next schedule takes what the
// reset deleted for absent without reading it. Of four schedules of the
// correct reconciler, each creating the Widget and the reconciler the
// Gizmo, only the first reads the Gizmo (absent), and the Widget is read
// once a schedule, after its creation (main read each 8 times: in every
// reset, and the Gizmo before every create).
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
	if got := srv.count("get Widget"); got != schedules {
		t.Errorf("the Widget was read %d times, want %d (once a schedule, as created)", got, schedules)
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
