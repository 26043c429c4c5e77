package explore_test

import (
	"context"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// An object there before Run that a step deletes (with a finalizer that
// holds it, being deleted, or none), or whose status or spec a step
// writes: every schedule, before and after one that wrote it, starts with
// it as the test made it, and the search leaves it so. A status written
// is restored in place (through the status subresource); a spec written
// (another generation) and a deletion, by making it again (a deletion
// cannot be undone: the finalizers the step left are removed first).
func TestResetRestoresAStartAStepWrote(t *testing.T) {
	const hold = "test.statuspatch.dev/hold"
	for _, tc := range []struct {
		name       string
		finalizers []string
		write      func(ctx context.Context, c client.Client, settings client.Object) error
		inPlace    bool // restored in place, its UID kept
	}{
		{"deleted", nil, deleteIt, false},
		{"deleted, held by a finalizer", []string{hold}, deleteIt, false},
		{"status written", nil, func(ctx context.Context, c client.Client, s client.Object) error {
			w := s.(*testv1.Widget)
			w.Status.Phase, w.Status.Items = "moved", nil
			return c.Status().Update(ctx, w)
		}, true},
		{"spec written", nil, func(ctx context.Context, c client.Client, s client.Object) error {
			s.(*testv1.Widget).Spec.Size = 7
			return c.Update(ctx, s)
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := server(t)
			start := &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "settings", Finalizers: tc.finalizers,
				Labels: map[string]string{"kept": "yes"}}, Spec: testv1.WidgetSpec{Size: 2, Data: "start"}}
			makeSettings(t, env.Client, start)
			start.Status = testv1.WidgetStatus{Phase: "start", Items: []string{"a"}}
			if err := env.Client.Status().Update(t.Context(), start); err != nil {
				t.Fatal(err)
			}
			var n startCounts
			w := startWriter{start: settingsAt(start), write: tc.write, n: &n}
			o := serverOptions(t)
			// The settings are no reconciler's: no steady state keeps
			// their generation observed, nor removes their finalizer.
			o.Disable = []string{explore.InvariantObservedGenerationStuck, explore.InvariantStuckFinalizer}
			res, err := explore.Run(t.Context(), w.scenario(widgetW(), labelW), o)
			if err != nil {
				t.Fatal(err)
			}
			n.check(t, res, 1)
			after := w.start.after(t, env.Client)
			if inPlace := after.GetUID() == start.UID; inPlace != tc.inPlace {
				t.Errorf("the settings restored in place (their UID kept): %v, want %v", inPlace, tc.inPlace)
			}
		})
	}
}

// A restore that cannot make the start state is an error naming the
// object: made again, an object there before Run at generation 2 is at
// generation 1, and the search does not run on that other start.
func TestResetRestoreThatCannotIsAnError(t *testing.T) {
	env := server(t)
	start := &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "settings"}, Spec: testv1.WidgetSpec{Size: 2}}
	makeSettings(t, env.Client, start)
	start.Spec.Size = 3
	if err := env.Client.Update(t.Context(), start); err != nil || start.Generation != 2 {
		t.Fatalf("settings at generation %d, want 2: %v", start.Generation, err)
	}
	var n startCounts
	w := startWriter{start: settingsAt(start), write: deleteIt, n: &n}
	labelled := &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w", Labels: map[string]string{"team": "a"}}}
	res, err := explore.Run(t.Context(), w.scenario([]client.Object{labelled}), serverOptions(t))
	if err == nil || !strings.Contains(err.Error(), "reset Widget ns/settings: cannot restore it as the search began: metadata.generation is 1") || n.moved.Load() != 0 {
		t.Fatalf("want an error naming the settings, no schedule on another start; got %v (%d reconciles read them moved), %+v", err, n.moved.Load(), res)
	}
	t.Log(err)
}
