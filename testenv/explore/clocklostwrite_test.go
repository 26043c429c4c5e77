package explore_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// A real clock (time.Now) makes a replay diverge; these writers' clocks
// are deterministic stand-ins that still tell a stale read from a fresh
// one, as time.Now would (a fresh schedule runs later).

// second is 2026-11-29T08:00:0s, RFC3339: a time-like value.
func second(s int) string {
	return time.Date(2026, 11, 29, 8, 0, s, 0, time.UTC).Format(time.RFC3339)
}

// clockScenario is pauseScenario whose writer stamps the time beside
// mode=done: at, the time of the request it handles (the annotation
// requested, which the user's each edit stamps anew, as Flux's
// reconcile.fluxcd.io/requestedAt and its lastHandledReconcileAt).
func clockScenario(pause bool) explore.Scenario {
	key := types.NamespacedName{Namespace: "ns", Name: "ps-w"}
	s := pauseScenario(pause)
	s.Reconcilers[0].New = blindPatcher(key, func(_ context.Context, _ client.Client, w *testv1.Widget) (bool, error) {
		if w.Annotations["mode"] == "done" || w.Annotations["pause"] == "true" {
			return false, nil
		}
		w.Annotations["mode"], w.Annotations["at"] = "done", w.Annotations["requested"]
		return true, nil
	})
	s.Objects[0].SetAnnotations(map[string]string{"mode": "a", "requested": second(0)})
	for i, a := range s.Actions {
		run, at := a.Run, second(i+1)
		s.Actions[i].Run = func(ctx context.Context, c client.Client) error {
			if err := run(ctx, c); err != nil {
				return err
			}
			return c.Patch(ctx, &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}},
				client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"annotations":{"requested":"`+at+`"}}}`)))
		}
	}
	return s
}

// TestLostWriteAsSeenWithAClock: TestLostWriteAsSeenJudgedFresh's
// schedule, the writer stamping the time beside mode=done. Its stale
// write's mode=done over the user's mode=a (set back, as the writer saw
// it) is what the fresh read writes too, and the stamp overwrote no one
// (a field nobody had set): nothing is lost. The fresh write is compared
// in the lost fields only; before, in every field it set, and the
// stamps differing gave a loss of times only. Where the Widget is
// paused, the fresh read writes nothing, and the loss stands.
func TestLostWriteAsSeenWithAClock(t *testing.T) {
	replayLostCases(t, clockScenario, "!to-x !back done:ns/ps-w@4",
		lostCase{"the fresh read writes the same but the stamp", false, ""},
		lostCase{"the fresh read writes nothing", true, "Widget ns/ps-w: metadata.annotations.mode written by step 2 (v4) overwritten by step 3 (v6), which had seen only v1 (values as the writer saw them)"})
}

// clockCountScenario is countScenario (the derived count) whose writer
// stamps since, the time it first counted: its clock's time (a second
// per reconcile of the process) where the count it read is absent, else
// the since it read, as a condition's lastTransitionTime.
func clockCountScenario() explore.Scenario {
	const ns = "ns"
	sumKey := types.NamespacedName{Namespace: ns, Name: "dl-sum"}
	s := countScenario(false)
	s.Reconcilers[0].New = func(c client.Client, r client.Reader) reconcile.Reconciler {
		tick := 0
		return blindPatcher(sumKey, func(ctx context.Context, c client.Client, sum *testv1.Widget) (bool, error) {
			tick++
			list := &testv1.GizmoList{}
			if err := c.List(ctx, list, client.InNamespace(ns), client.MatchingLabels{"dl": "1"}); err != nil {
				return false, err
			}
			n := strconv.Itoa(len(list.Items))
			was, counted := sum.Annotations["count"]
			if counted && was == n {
				return false, nil
			}
			since := sum.Annotations["since"]
			if !counted {
				since = second(tick)
			}
			sum.Annotations = map[string]string{"count": n, "since": since}
			return true, nil
		})(c, r)
	}
	return s
}

// TestLostWriteTimesOnlyNamesTheTimes: TestLostWriteJudgedByTheFreshSchedule's
// derived count, stamped: the stale reconcile (its own write unseen)
// writes count=1 and a new since over step 1's count=0 and since; the
// fresh schedule writes count=1 and keeps step 1's since. The loss
// stands as one of times only, and its note names the field whose times
// differ, since, not every lost field (before: "metadata.annotations.count,
// metadata.annotations.since").
func TestLostWriteTimesOnlyNamesTheTimes(t *testing.T) {
	replayLost(t, clockCountScenario(), explore.Options{Replay: "count:ns/dl-a@0,0 !label-a count:ns/dl-a@1,0"},
		"(a fresh read would have sent the same values but for time-like fields: metadata.annotations.since)")
}
