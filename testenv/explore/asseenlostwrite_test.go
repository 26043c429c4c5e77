package explore_test

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// asSeenScenario: Widget as-w has annotation mode=a; a reconciler of
// Widgets sets mode=done by a blind MergeFrom patch of what it read from
// the cache; the user's action to-x sets mode=x, and then back sets it
// back to a (restore) or to y (not), each an update of what it read.
func asSeenScenario(restore bool) explore.Scenario {
	const ns = "ns"
	key := types.NamespacedName{Namespace: ns, Name: "as-w"}
	newRec := func(c client.Client, _ client.Reader) reconcile.Reconciler {
		return reconcile.Func(func(ctx context.Context, _ reconcile.Request) (reconcile.Result, error) {
			w := &testv1.Widget{}
			if err := c.Get(ctx, key, w); err != nil {
				return reconcile.Result{}, client.IgnoreNotFound(err)
			}
			if w.Annotations["mode"] == "done" {
				return reconcile.Result{}, nil
			}
			old := w.DeepCopy()
			w.Annotations = map[string]string{"mode": "done"}
			return reconcile.Result{}, c.Patch(ctx, w, client.MergeFrom(old))
		})
	}
	set := func(mode string) func(context.Context, client.Client) error {
		return func(ctx context.Context, c client.Client) error {
			w := &testv1.Widget{}
			if err := c.Get(ctx, key, w); err != nil {
				return err
			}
			w.Annotations["mode"] = mode
			return c.Update(ctx, w)
		}
	}
	back := "y"
	if restore {
		back = "a"
	}
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "done", For: &testv1.Widget{}, New: newRec}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "as-w",
			Annotations: map[string]string{"mode": "a"}}}},
		Actions: []explore.Action{{Name: "to-x", Run: set("x")}, {Name: "back", Run: set(back)}},
	}
}

// TestLostWriteNotOfValuesAsSeen: the reconciler reads v1 (mode=a) from
// a stale cache after the user set mode=x (v2) and then back to a (v3),
// and writes mode=done over v3: the value it overwrote is the one it saw,
// nothing it had not seen is lost (the LeaderWorkerSet false alarm,
// examples/realops: a replace --force re-creating the StatefulSet from the
// version the reconciler read). The same stale read after the user set
// mode=y at v3 overwrites a value it never saw, and is still reported.
func TestLostWriteNotOfValuesAsSeen(t *testing.T) {
	const replay = "!to-x !back done:ns/as-w@2"
	for _, tc := range []struct {
		name    string
		restore bool
		lost    string // the lost field; "" none
	}{
		{"set back to the value seen", true, ""},
		{"set to another value", false, "metadata.annotations.mode written by step 2 (v3) overwritten by step 3 (v4), which had seen only v1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			replayLost(t, asSeenScenario(tc.restore), explore.Options{Replay: replay}, tc.lost)
		})
	}
}
