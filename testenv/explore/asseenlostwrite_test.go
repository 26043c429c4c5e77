package explore_test

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// asSeenScenario: Widget as-w has annotation mode=a; a reconciler of
// Widgets sets mode=done by a blind MergeFrom patch of what it read from
// the cache; the user's action to-x sets mode=x, and then back sets it
// back to a (restore) or to y (not), each an update of what it read.
func asSeenScenario(restore bool) explore.Scenario {
	key := types.NamespacedName{Namespace: "ns", Name: "as-w"}
	back := "y"
	if restore {
		back = "a"
	}
	return blindScenario("done", &testv1.Widget{}, key,
		func(_ context.Context, _ client.Client, w *testv1.Widget) (bool, error) {
			if w.Annotations["mode"] == "done" {
				return false, nil
			}
			w.Annotations = map[string]string{"mode": "done"}
			return true, nil
		},
		[]client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name,
			Annotations: map[string]string{"mode": "a"}}}},
		explore.Action{Name: "to-x", Run: annotate(key, "mode", "x")}, explore.Action{Name: "back", Run: annotate(key, "mode", back)})
}

// TestLostWriteNotOfValuesAsSeen: the reconciler reads v1 (mode=a) from
// a stale cache after the user set mode=x (v2) and then back to a (v3),
// and writes mode=done over v3: the value it overwrote is the one it saw,
// nothing it had not seen is lost (the LeaderWorkerSet false alarm,
// examples/realops: a replace --force re-creating the StatefulSet from the
// version the reconciler read). The same stale read after the user set
// mode=y at v3 overwrites a value it never saw, and is still reported.
func TestLostWriteNotOfValuesAsSeen(t *testing.T) {
	replayLostCases(t, asSeenScenario, "!to-x !back done:ns/as-w@2",
		lostCase{"set back to the value seen", true, ""},
		lostCase{"set to another value", false, "metadata.annotations.mode written by step 2 (v3) overwritten by step 3 (v4), which had seen only v1"})
}
