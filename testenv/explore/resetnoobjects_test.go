package explore_test

import (
	"context"
	"sync/atomic"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// A scenario with no Objects and no Scenario.BeginSchedule still knows
// when its search began: Widget ns/settings, made by the test before
// Run and deleted by a reconciler once an action makes w, is there
// before the search, and every schedule starts with it as the test made
// it (looked up through the test's own client, which no book sees).
// With no revision to begin from, the reset deleted it for good after
// the first schedule, and the later ones ran without it.
func TestResetRestoresAStartWithoutObjects(t *testing.T) {
	env := server(t)
	start := &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "settings"}, Spec: testv1.WidgetSpec{Size: 2, Data: "start"}}
	if err := env.Client.Create(t.Context(), start); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := env.Client.Delete(context.Background(), start); client.IgnoreNotFound(err) != nil {
			t.Errorf("removing the settings: %v", err)
		}
	})
	var deleted, moved atomic.Int64
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "deleter", For: &testv1.Widget{},
			New: func(c client.Client, api client.Reader) reconcile.Reconciler {
				return &blindDeleter{c: c, api: api, look: env.Client, deleted: &deleted, moved: &moved}
			}}},
		Actions: []explore.Action{{Name: "make-w", Run: func(ctx context.Context, c client.Client) error {
			return c.Create(ctx, &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w", Labels: map[string]string{"team": "a"}}})
		}}},
	}
	res, err := explore.Run(t.Context(), s, serverOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted || res.Schedules < 2 || moved.Load() != 0 || deleted.Load() < 2 {
		t.Fatalf("want every schedule to start with the settings, no violation; got %d schedules (exhausted %v), %d reconciles found them gone, %d deleted them:\n%v",
			res.Schedules, res.Exhausted, moved.Load(), deleted.Load(), res.Violation)
	}
	after := &testv1.Widget{}
	if err := env.Client.Get(t.Context(), client.ObjectKeyFromObject(start), after); err != nil || !asStarted(after, start) {
		t.Fatalf("the settings after the search: %v, %+v; want them as made", err, after)
	}
}
