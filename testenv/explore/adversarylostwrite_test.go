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

// pauseScenario: Widget ps-w has annotation mode=a; a reconciler of
// Widgets sets mode=done by a blind MergeFrom patch of what it read from
// the cache, unless the Widget is annotated pause=true; the user's
// action to-x sets mode=x, and then back sets mode back to a, and
// pause=true when pause, each an update of what it read.
func pauseScenario(pause bool) explore.Scenario {
	key := types.NamespacedName{Namespace: "ns", Name: "ps-w"}
	back := annotate(key, "mode", "a")
	if pause {
		back = annotate(key, "mode", "a", "pause", "true")
	}
	return blindScenario("done", &testv1.Widget{}, key, pauseWrite,
		[]client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name,
			Annotations: map[string]string{"mode": "a"}}}},
		explore.Action{Name: "to-x", Run: annotate(key, "mode", "x")}, explore.Action{Name: "back", Run: back})
}

// pauseWrite sets mode=done, unless done already or paused.
func pauseWrite(_ context.Context, _ client.Client, w *testv1.Widget) (bool, error) {
	if w.Annotations["mode"] == "done" || w.Annotations["pause"] == "true" {
		return false, nil
	}
	w.Annotations = map[string]string{"mode": "done"}
	return true, nil
}

// TestLostWriteAsSeenJudgedFresh: the reconciler reads v1 (mode=a) from
// a stale cache after the user set mode=x (v2) and then back to a (v3),
// and writes mode=done over v3, a value as it saw it. Where v3 also
// pauses the reconciler, the same schedule with that read fresh writes
// nothing: the stale read overwrote the user's mode=a, which the
// reconciler would have left, and the loss stands (before, asSeen took
// it back unjudged). Without the pause the fresh write sets mode=done
// too, and nothing is lost (TestLostWriteNotOfValuesAsSeen).
func TestLostWriteAsSeenJudgedFresh(t *testing.T) {
	replayLostCases(t, pauseScenario, "!to-x !back done:ns/ps-w@2",
		lostCase{"the fresh read writes the same", false, ""},
		lostCase{"the fresh read writes nothing", true, "Widget ns/ps-w: metadata.annotations.mode written by step 2 (v3) overwritten by step 3 (v4), which had seen only v1 (values as the writer saw them)"})
}

// setBackScenario is ownValuesScenario (the applier owning the label),
// whose user, instead of replacing the Gizmo, relabels it size=5 and
// then, on purpose, back to size=0, each an update of what it read.
func setBackScenario() explore.Scenario {
	key := types.NamespacedName{Namespace: "ns", Name: "ov-w"}
	s := ownValuesScenario(false, "")
	relabel := func(size string) func(context.Context, client.Client) error {
		return func(ctx context.Context, c client.Client) error {
			g := &testv1.Gizmo{}
			if err := c.Get(ctx, key, g); err != nil {
				return err
			}
			g.Labels["size"] = size
			return c.Update(ctx, g)
		}
	}
	s.Actions = []explore.Action{s.Actions[0], {Name: "to5", Run: relabel("5")}, {Name: "to0", Run: relabel("0")}}
	return s
}

// TestLostWriteOverAValueSetBack: step 1 applies the Gizmo with size=0
// (v2); the user grows the Widget, relabels the Gizmo size=5 (v3) and
// back to size=0 (v4); step 5 reads the Gizmo's absence (v1) from a
// stale cache and applies size=1 over v4. v4's size equals what the
// reconciler's apply set at v2, but the user set it since: it is the
// user's value, overwritten unseen (as TestApplyRestatingItsOwnFieldsLosesNothing's
// relabel), not the reconciler's own restated, and the loss stands
// (before, ownValues judged it as the reconciler's own and the fresh
// apply, also size=1, took it back).
func TestLostWriteOverAValueSetBack(t *testing.T) {
	o := explore.Options{Replay: "widget:ns/ov-w@0,0 !grow !to5 !to0 widget:ns/ov-w@0,3",
		Disable: []string{explore.InvariantObservedGenerationStuck}} // it keeps no status
	replayLost(t, setBackScenario(), o,
		"Gizmo ns/ov-w: metadata.labels.size written by step 4 (v4) overwritten by step 5 (v5), which had seen only v1, by an apply")
}
