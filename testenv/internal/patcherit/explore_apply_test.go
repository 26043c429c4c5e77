package patcherit_test

// The explorer on server-side apply, on the real server: each of the three
// ways a reconciler applies (a patch of ApplyPatchType through
// Status().Patch, at every controller-runtime line; Client.Apply of an
// apply configuration; SubResource("status").Apply, from controller-runtime
// v0.23) is recorded as a write, its version taken into the history, and a
// blind apply decided on a stale read is found as a lost write, while the
// same apply carrying the read's resourceVersion, retried on a fresh read
// after its 409, passes.

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// ssaReconciler reads a Widget through the cached client, decides, and applies
// what it decided under its field owner with forced ownership; locked
// carries the read's resourceVersion and, on a 409, reads again through the
// API reader and decides again.
type ssaReconciler struct {
	c, api client.Client
	locked bool
	// body is the apply configuration's content besides apiVersion, kind,
	// name and namespace, decided from the read; nil: nothing to apply.
	body func(w *testv1.Widget) map[string]any
	send func(ctx context.Context, c client.Client, u *unstructured.Unstructured) error
}

func (r *ssaReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	for attempt := 0; ; attempt++ {
		content := r.body(w)
		if content == nil {
			return ctrl.Result{}, nil
		}
		u := &unstructured.Unstructured{Object: content}
		u.SetAPIVersion(testv1.GroupVersion.String())
		u.SetKind("Widget")
		u.SetNamespace(w.Namespace)
		u.SetName(w.Name)
		if r.locked {
			u.SetResourceVersion(w.ResourceVersion)
		}
		err := r.send(ctx, r.c, u)
		if !r.locked || !apierrors.IsConflict(err) || attempt == 3 {
			return ctrl.Result{}, err
		}
		if err := r.api.Get(ctx, req.NamespacedName, w); err != nil {
			return ctrl.Result{}, err
		}
	}
}

// addItemApplied is addItem as an apply of status.items (an atomic list).
func addItemApplied(w *testv1.Widget) map[string]any {
	before := len(w.Status.Items)
	addItem(w)
	if len(w.Status.Items) == before {
		return nil
	}
	return map[string]any{"status": map[string]any{"items": w.Status.Items}}
}

// addLabelApplied applies the labels a, then a and b: an applier owns
// what it applies, so applying {a} from a read without b removes b.
func addLabelApplied(w *testv1.Widget) map[string]any {
	switch len(w.Labels) {
	case 0:
		return map[string]any{"metadata": map[string]any{"labels": map[string]any{"a": "1"}}}
	case 1:
		return map[string]any{"metadata": map[string]any{"labels": map[string]any{"a": "1", "b": "2"}}}
	}
	return nil
}

var applyOpts = []client.SubResourcePatchOption{client.FieldOwner("explore-apply"), client.ForceOwnership}

func statusApplyPatch(ctx context.Context, c client.Client, u *unstructured.Unstructured) error {
	data, err := json.Marshal(u.Object)
	if err != nil {
		return err
	}
	return c.Status().Patch(ctx, u, client.RawPatch(types.ApplyPatchType, data), applyOpts...)
}

func clientApply(ctx context.Context, c client.Client, u *unstructured.Unstructured) error {
	return c.Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner("explore-apply"), client.ForceOwnership)
}

// subResourceApply calls SubResource("status").Apply where this
// controller-runtime has it (v0.23 on), by reflection so that this test
// builds at v0.22; errNoSubResourceApply where it does not.
func subResourceApply(ctx context.Context, c client.Client, u *unstructured.Unstructured) error {
	m := reflect.ValueOf(c.SubResource("status")).MethodByName("Apply")
	if !m.IsValid() {
		return errNoSubResourceApply
	}
	// client.FieldOwner and client.ForceOwnership are SubResourceApplyOptions
	// too from v0.23; build the variadic slice of the method's own type.
	opts := reflect.MakeSlice(m.Type().In(2), 0, 2)
	for _, o := range []any{client.FieldOwner("explore-apply"), client.ForceOwnership} {
		opts = reflect.Append(opts, reflect.ValueOf(o))
	}
	ac := client.ApplyConfigurationFromUnstructured(u)
	out := m.CallSlice([]reflect.Value{reflect.ValueOf(ctx), reflect.ValueOf(&ac).Elem(), opts})
	err, _ := out[0].Interface().(error)
	return err
}

var errNoSubResourceApply = errors.New("this controller-runtime has no SubResource(...).Apply (v0.22)")

func applyScenario(name string, locked bool, body func(*testv1.Widget) map[string]any,
	send func(context.Context, client.Client, *unstructured.Unstructured) error,
) explore.Scenario {
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "applier", For: &testv1.Widget{},
			New: func(c client.Client, api client.Reader) reconcile.Reconciler {
				return &ssaReconciler{c: c, api: api.(client.Client), locked: locked, body: body, send: send}
			}}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "explore-apply", Name: name}}},
	}
}

func TestExploreServerSideApply(t *testing.T) {
	e := env(t)
	for _, tc := range []struct {
		name, verb string
		body       func(*testv1.Widget) map[string]any
		send       func(context.Context, client.Client, *unstructured.Unstructured) error
		field      string // the field the blind apply loses
	}{
		{"status-patch", "status apply", addItemApplied, statusApplyPatch, "status.items"},
		{"client-apply", "apply", addLabelApplied, clientApply, "metadata.labels"},
		{"subresource-apply", "status apply", addItemApplied, subResourceApply, "status.items"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "subresource-apply" {
				if err := subResourceApply(ctx, e.Client, &unstructured.Unstructured{}); errors.Is(err, errNoSubResourceApply) {
					t.Skip(err)
				}
			}
			// One manager's cache never goes backwards (the explorer's
			// informers.View): the stale read that loses the other item
			// comes from a new leader's cache after a leader change.
			o := explore.Options{Backend: explore.Server(e), Crashes: 1, LeaderChange: true}
			res := runExplore(t, applyScenario("blind-"+tc.name, false, tc.body, tc.send), o)
			v := res.Violation
			if v == nil || v.Invariant != explore.InvariantLostWrite {
				t.Fatalf("blind %s: want a lost write, got %v", tc.name, v)
			}
			if !strings.Contains(v.Message, tc.field) || !strings.Contains(v.String(), "STALE") {
				t.Errorf("blind %s: want %s and the stale read in the schedule:\n%s", tc.name, tc.field, v)
			}
			applies := 0
			for _, s := range v.Steps {
				for _, w := range s.Writes {
					if w.Verb == tc.verb && w.Answer == "ok" && w.Version > 0 {
						applies++
					}
				}
			}
			if applies < 2 {
				t.Errorf("blind %s: want at least two recorded %q writes that made a version, got %d:\n%s", tc.name, tc.verb, applies, v)
			}

			res = runExplore(t, applyScenario("locked-"+tc.name, true, tc.body, tc.send), o)
			if res.Violation != nil || !res.Exhausted {
				t.Fatalf("locked %s: want no violation and an exhausted search, got %+v\n%v", tc.name, res, res.Violation)
			}
		})
	}
}

// An apply configuration that names no object is an error of the call,
// not a panic or an unrecorded write.
func TestExploreApplyWithoutAName(t *testing.T) {
	var errs []error
	s := applyScenario("noname", false, addLabelApplied, func(ctx context.Context, c client.Client, u *unstructured.Unstructured) error {
		u.SetName("")
		err := clientApply(ctx, c, u)
		errs = append(errs, err)
		return err
	})
	// The reconciler errs on every run, which the built-in error-loop check
	// reports; this test is about the error itself.
	o := explore.Options{Backend: explore.Server(env(t)), Disable: []string{explore.InvariantErrorLoop}}
	if v := runExplore(t, s, o).Violation; v != nil {
		t.Fatalf("want no violation, got %v", v)
	}
	if len(errs) == 0 || errs[0] == nil || !strings.Contains(errs[0].Error(), "an apply configuration needs all three") {
		t.Fatalf("want the Apply's error naming the missing name, got %v", errs)
	}
}

// patcherApplier adds "mine" to status.items, once, through the patcher's
// Retry in apply mode, reading through the explorer's cached client and
// re-reading through its API reader on a conflict.
type patcherApplier struct {
	c    client.Client
	api  client.Reader
	mode patcher.Option
}

func (r *patcherApplier) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	p, err := patcher.Fetch(ctx, r.c, req.NamespacedName, &testv1.Widget{},
		patcher.WithFieldOwner("explore-patcher"), patcher.WithAPIReader(r.api), patcher.WithMetrics(nil), r.mode)
	if err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return ctrl.Result{}, p.Retry(ctx, func(w *testv1.Widget) error {
		if !slices.Contains(w.Status.Items, "mine") {
			w.Status.Items = append(w.Status.Items, "mine")
		}
		return nil
	})
}

// The patcher's two apply modes explored side by side on the real server,
// with another writer (an Action: another controller, so not in this
// manager's record of its own writes) adding "theirs" to the same atomic
// list: WithApply passes every schedule.
func TestExplorePatcherApplyModes(t *testing.T) {
	e := env(t)
	scenario := func(name string, mode patcher.Option) explore.Scenario {
		key := client.ObjectKey{Namespace: "explore-apply", Name: name}
		return explore.Scenario{
			Reconcilers: []explore.Reconciler{{Name: "patcher", For: &testv1.Widget{},
				New: func(c client.Client, api client.Reader) reconcile.Reconciler {
					return &patcherApplier{c: c, api: api, mode: mode}
				}}},
			Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}}},
			Actions: []explore.Action{{Name: "other-writer", Run: func(ctx context.Context, c client.Client) error {
				w := &testv1.Widget{}
				if err := c.Get(ctx, key, w); err != nil {
					return err
				}
				if slices.Contains(w.Status.Items, "theirs") {
					return nil
				}
				base := w.DeepCopy()
				w.Status.Items = append(w.Status.Items, "theirs")
				return c.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
			}}},
		}
	}
	o := explore.Options{Backend: explore.Server(e)}
	if res := runExplore(t, scenario("patcher-apply", patcher.WithWriteMode(patcher.WriteApply)), o); res.Violation != nil || !res.Exhausted {
		t.Fatalf("WithApply: want no violation and an exhausted search, got %+v\n%v", res, res.Violation)
	}
	// WithApplyWithoutLock still loses "theirs", but it reads the object
	// again just before its apply (to keep the fields the decision did not
	// change, issue 30), so the explorer sees a write that followed a read
	// of "theirs" and cannot call it lost: the loss is shown directly by
	// TestApplyWithoutLockStillLosesAnUnseenListValue.
}
