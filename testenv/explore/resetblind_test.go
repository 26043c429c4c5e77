package explore_test

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// blindDeleter is a startWriter that looks for Widget start on the
// server outside the explorer (look, which no book sees) and deletes it
// by name, without reading it through the explorer.
func blindDeleter(look client.Reader, start *testv1.Widget, n *startCounts) startWriter {
	return startWriter{look: look, start: settingsAt(start), n: n,
		write: func(ctx context.Context, c client.Client, _ client.Object) error {
			return c.Delete(ctx, &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Name: start.Name, Namespace: start.Namespace}})
		}}
}

// An object there before Run whose first contact is a step's write, a
// delete by name without a read (the embedded server serves no
// ConfigMap: a Widget, through the same typed delete): every schedule after the one that
// deleted it starts with it as the test made it, and the search leaves
// it so.
func TestResetRestoresAStartDeletedBlind(t *testing.T) {
	env := server(t)
	start := &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "settings"}, Spec: testv1.WidgetSpec{Size: 2, Data: "start"}}
	makeSettings(t, env.Client, start)
	var n startCounts
	w := blindDeleter(env.Client, start, &n)
	res, err := explore.Run(t.Context(), w.scenario(widgetW(), labelW), serverOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	n.check(t, res, 2)
	w.start.after(t, env.Client)
}
