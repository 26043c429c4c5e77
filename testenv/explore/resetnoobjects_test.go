package explore_test

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

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
	makeSettings(t, env.Client, start)
	var n startCounts
	w := blindDeleter(env.Client, start, &n)
	makeW := explore.Action{Name: "make-w", Run: func(ctx context.Context, c client.Client) error {
		return c.Create(ctx, &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w", Labels: map[string]string{"team": "a"}}})
	}}
	res, err := explore.Run(t.Context(), w.scenario(nil, makeW), serverOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	n.check(t, res, 2)
	w.start.after(t, env.Client)
}
