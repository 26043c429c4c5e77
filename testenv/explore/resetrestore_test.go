package explore_test

import (
	"context"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// startWriter writes Widget ns/settings, there before Run, once Widget w
// is labelled: it first marks w (annotation wrote), then writes the
// settings (write). A reconcile of w that reads, fresh, w unmarked and
// the settings other than as the test made them (absent, being deleted,
// another spec, status or finalizers) counts in moved: its schedule did
// not start from the search's start. seen counts the reads of the
// settings as made after a schedule wrote them.
type startWriter struct {
	c     client.Client
	api   client.Reader
	start *testv1.Widget
	write func(ctx context.Context, c client.Client, settings *testv1.Widget) error
	wrote *atomic.Int64
	moved *atomic.Int64
	seen  *atomic.Int64
}

func (r *startWriter) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	if req.Name != "w" {
		return ctrl.Result{}, nil
	}
	w := &testv1.Widget{}
	if err := r.api.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if w.Annotations["wrote"] != "" {
		return ctrl.Result{}, nil
	}
	settings := &testv1.Widget{}
	err := r.api.Get(ctx, client.ObjectKeyFromObject(r.start), settings)
	if client.IgnoreNotFound(err) != nil {
		return ctrl.Result{}, err
	}
	if err != nil || !asStarted(settings, r.start) {
		r.moved.Add(1)
		return ctrl.Result{}, nil
	}
	if r.wrote.Load() > 0 {
		r.seen.Add(1)
	}
	if w.Labels["team"] != "a" {
		return ctrl.Result{}, nil
	}
	mark := client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"annotations":{"wrote":"yes"}}}`))
	if err := r.c.Patch(ctx, w, mark); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.write(ctx, r.c, settings); err != nil {
		return ctrl.Result{}, err
	}
	r.wrote.Add(1)
	return ctrl.Result{}, nil
}

// asStarted reports that got is start as the test made it: what the
// reset restores (not its UID, resourceVersion, creationTimestamp).
func asStarted(got, start *testv1.Widget) bool {
	return got.DeletionTimestamp == nil && got.Generation == start.Generation &&
		reflect.DeepEqual(got.Spec, start.Spec) && reflect.DeepEqual(got.Status, start.Status) &&
		reflect.DeepEqual(got.Finalizers, start.Finalizers) && reflect.DeepEqual(got.Labels, start.Labels) &&
		reflect.DeepEqual(got.Annotations, start.Annotations)
}

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
		write      func(ctx context.Context, c client.Client, settings *testv1.Widget) error
		inPlace    bool // restored in place, its UID kept
	}{
		{"deleted", nil, func(ctx context.Context, c client.Client, s *testv1.Widget) error {
			return c.Delete(ctx, s)
		}, false},
		{"deleted, held by a finalizer", []string{hold}, func(ctx context.Context, c client.Client, s *testv1.Widget) error {
			return c.Delete(ctx, s)
		}, false},
		{"status written", nil, func(ctx context.Context, c client.Client, s *testv1.Widget) error {
			s.Status.Phase, s.Status.Items = "moved", nil
			return c.Status().Update(ctx, s)
		}, true},
		{"spec written", nil, func(ctx context.Context, c client.Client, s *testv1.Widget) error {
			s.Spec.Size = 7
			return c.Update(ctx, s)
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := server(t)
			start := &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "settings", Finalizers: tc.finalizers,
				Labels: map[string]string{"kept": "yes"}}, Spec: testv1.WidgetSpec{Size: 2, Data: "start"}}
			if err := env.Client.Create(t.Context(), start); err != nil {
				t.Fatal(err)
			}
			start.Status = testv1.WidgetStatus{Phase: "start", Items: []string{"a"}}
			if err := env.Client.Status().Update(t.Context(), start); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { removeSettings(t, env.Client, start) })
			var wrote, moved, seen atomic.Int64
			s := explore.Scenario{
				Reconcilers: []explore.Reconciler{{Name: "writer", For: &testv1.Widget{},
					New: func(c client.Client, api client.Reader) reconcile.Reconciler {
						return &startWriter{c: c, api: api, start: start, write: tc.write, wrote: &wrote, moved: &moved, seen: &seen}
					}}},
				Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
				Actions: []explore.Action{{Name: "label", Run: func(ctx context.Context, c client.Client) error {
					return c.Patch(ctx, &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}},
						client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"labels":{"team":"a"}}}`)))
				}}},
			}
			o := serverOptions(t)
			// The settings are no reconciler's: no steady state keeps
			// their generation observed, nor removes their finalizer.
			o.Disable = []string{explore.InvariantObservedGenerationStuck, explore.InvariantStuckFinalizer}
			res, err := explore.Run(t.Context(), s, o)
			if err != nil {
				t.Fatal(err)
			}
			if res.Violation != nil || !res.Exhausted || moved.Load() != 0 || wrote.Load() == 0 || seen.Load() == 0 {
				t.Fatalf("want every schedule to start with the settings as made, no violation; got %d schedules (exhausted %v), %d reconciles read them moved, %d wrote them, %d read them after a write:\n%v",
					res.Schedules, res.Exhausted, moved.Load(), wrote.Load(), seen.Load(), res.Violation)
			}
			after := &testv1.Widget{}
			if err := env.Client.Get(t.Context(), client.ObjectKeyFromObject(start), after); err != nil || !asStarted(after, start) {
				t.Fatalf("the settings after the search: %v, %+v; want them as made, %+v", err, after, start)
			}
			if inPlace := after.UID == start.UID; inPlace != tc.inPlace {
				t.Errorf("the settings restored in place (their UID kept): %v, want %v", inPlace, tc.inPlace)
			}
		})
	}
}

// removeSettings deletes s, its finalizers removed first, for the next
// test of the shared server.
func removeSettings(t *testing.T, c client.Client, s *testv1.Widget) {
	ctx := context.Background()
	u := &testv1.Widget{}
	if err := c.Get(ctx, client.ObjectKeyFromObject(s), u); err != nil {
		return
	}
	if len(u.Finalizers) > 0 {
		_ = c.Patch(ctx, u, client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`)))
	}
	if err := c.Delete(ctx, u); err != nil && !apierrors.IsNotFound(err) {
		t.Errorf("removing %s: %v", client.ObjectKeyFromObject(s), err)
	}
}

// A restore that cannot make the start state is an error naming the
// object: made again, an object there before Run at generation 2 is at
// generation 1, and the search does not run on that other start.
func TestResetRestoreThatCannotIsAnError(t *testing.T) {
	env := server(t)
	start := &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "settings"}, Spec: testv1.WidgetSpec{Size: 2}}
	if err := env.Client.Create(t.Context(), start); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { removeSettings(t, env.Client, start) })
	start.Spec.Size = 3
	if err := env.Client.Update(t.Context(), start); err != nil || start.Generation != 2 {
		t.Fatalf("settings at generation %d, want 2: %v", start.Generation, err)
	}
	var wrote, moved, seen atomic.Int64
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "writer", For: &testv1.Widget{},
			New: func(c client.Client, api client.Reader) reconcile.Reconciler {
				return &startWriter{c: c, api: api, start: start, wrote: &wrote, moved: &moved, seen: &seen,
					write: func(ctx context.Context, c client.Client, s *testv1.Widget) error { return c.Delete(ctx, s) }}
			}}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w", Labels: map[string]string{"team": "a"}}}},
	}
	res, err := explore.Run(t.Context(), s, serverOptions(t))
	if err == nil || !strings.Contains(err.Error(), "reset Widget ns/settings: cannot restore it as the search began: metadata.generation is 1") || moved.Load() != 0 {
		t.Fatalf("want an error naming the settings, no schedule on another start; got %v (%d reconciles read them moved), %+v", err, moved.Load(), res)
	}
	t.Log(err)
}
