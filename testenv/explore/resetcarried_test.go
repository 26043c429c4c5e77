package explore_test

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// What a reset deleted stays absent until a schedule's book meets it
// again, not only in the schedule after the reset: a schedule whose
// Widget is deleted before the first reconcile never meets the Gizmo,
// and the schedule after it takes the Gizmo an earlier reset deleted for
// absent without reading it. Of the exhaustive search, some schedules
// create the Gizmo and some do not; the Gizmo is read once, in the first
// schedule that meets it (b99aec7's parent read it again in every
// schedule after one that did not).
func TestResetGoneUntilMetAgain(t *testing.T) {
	srv := &countingServer{env: server(t)}
	deleteWidget := explore.Action{Name: "delete-widget", Run: func(ctx context.Context, c client.Client) error {
		return client.IgnoreNotFound(c.Delete(ctx, &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}))
	}}
	s := gizmoScenario(gizmoReconciler{}, deleteWidget)
	// Each schedule builds its reconciler anew (New); met counts those
	// that found the Widget, and so met the Gizmo.
	var built, met int
	newRec := s.Reconcilers[0].New
	s.Reconcilers[0].New = func(c client.Client, api client.Reader) reconcile.Reconciler {
		built++
		rec, found := newRec(c, api), false
		return reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			if !found && api.Get(ctx, req.NamespacedName, &testv1.Widget{}) == nil {
				found = true
				met++
			}
			return rec.Reconcile(ctx, req)
		})
	}
	res, err := explore.Run(t.Context(), s, explore.Options{Backend: explore.Server(srv), Depth: 3, Budget: searchBound})
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted {
		t.Fatalf("want an exhausted search without violation, got %d schedules:\n%v", res.Schedules, res.Violation)
	}
	if met == 0 || met >= built {
		t.Fatalf("%d of %d reconcilers built met the Gizmo; want some, not all", met, built)
	}
	if got := srv.count("get Gizmo"); got != 1 {
		t.Errorf("the Gizmo was read %d times in %d schedules (%d of %d reconcilers met it), want once: %s",
			got, res.Schedules, met, built, srv.perSchedule(res.Schedules))
	}
}
