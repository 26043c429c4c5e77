package patcherit_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"
	"github.com/statuspatch/statuspatch/testenv/internal/testapi"
)

// Issue 30, items 2, 3 and 5 (apply part), in merge mode and both apply
// modes.

// writeModes are the three ways a patcher writes, by name.
var writeModes = []struct {
	name string
	opt  patcher.Option
}{
	{"merge", patcher.WithWriteMode(patcher.WriteMergePatch)},
	{"apply", patcher.WithWriteMode(patcher.WriteApply)},
	{"apply-without-lock", patcher.WithWriteMode(patcher.WriteApplyWithoutLock)},
}

// A locked writer stores phase=Running; a writer of the same field owner
// that read before it bumps a counter. Whatever its mode, the phase stays:
// under the lock the stale write is a 409 and Retry decides again; without
// it the apply holds what the decision changed, and the fields the owner
// holds and the decision did not change are not re-sent from the stale
// read. Before the fix the unlocked apply re-sent phase=Pending, nil error.
func TestApplyStaleWriterOfTheSameOwnerKeepsALockedDecision(t *testing.T) {
	e := env(t)
	for _, m := range writeModes {
		t.Run(m.name, func(t *testing.T) {
			key := newWidget(t, e.Client)
			locked := patcher.WithWriteMode(patcher.WriteApply)
			if m.name == "merge" {
				locked = m.opt
			}
			first := fetchApply(t, e.Client, key, locked)
			first.Object().Status.Phase = "Pending"
			first.Object().Status.Counters = map[string]int64{"seen": 1}
			meta.SetStatusCondition(&first.Object().Status.Conditions, cond("Ready", "Starting"))
			if err := first.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			stale := fetchApply(t, e.Client, key, m.opt)
			decider := fetchApply(t, e.Client, key, locked)
			decider.Object().Status.Phase = "Running"
			decider.Object().Status.Plan = &v1.WidgetPlan{ID: "p1"} // a field the stale read lacks
			meta.SetStatusCondition(&decider.Object().Status.Conditions, cond("Ready", "Up"))
			if err := decider.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			err := stale.Retry(ctx, func(w *v1.Widget) error {
				if w.Status.Counters == nil {
					w.Status.Counters = map[string]int64{}
				}
				w.Status.Counters["seen"]++
				return nil
			})
			if err != nil {
				t.Fatalf("Retry = %v", err)
			}
			got := get(t, e.Client, key)
			c := meta.FindStatusCondition(got.Status.Conditions, "Ready")
			if got.Status.Phase != "Running" || c == nil || c.Reason != "Up" || got.Status.Plan == nil || got.Status.Counters["seen"] != 2 {
				t.Fatalf("stored %+v: want phase Running, Ready/Up and the plan kept, the counter bumped to 2", got.Status)
			}
		})
	}
}

// setEnv is a server whose Widget status.items is a +listType=set.
func setEnv(t *testing.T) *testenv.Env {
	t.Helper()
	var crds []*apiextensionsv1.CustomResourceDefinition
	for _, crd := range testapi.CRDs() {
		if crd.Spec.Names.Kind == "Widget" {
			status := crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["status"]
			items := status.Properties["items"]
			set := "set"
			items.XListType = &set
			status.Properties["items"] = items
			crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["status"] = status
		}
		crds = append(crds, crd)
	}
	s := runtime.NewScheme()
	if err := v1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	e, stop, err := testenv.StartServer(ctx, testenv.WithCRDs(crds...), testenv.WithScheme(s))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return e
}

// A +listType=set list is owned value by value. We add x and y; another
// controller applies x too. Removing the shared x: an apply cannot (the
// other manager keeps it), so apply mode refuses, sending nothing; merge
// mode removes it. Before the fix the whole list [y] was applied, nil
// error, and x stayed. Adding z sends z and our own values only: the
// other controller's values are not taken, so when it drops one the value
// goes.
func TestApplySetListIsOwnedValueByValue(t *testing.T) {
	e := setEnv(t)
	c, rec := countingClient(t, e)
	for _, m := range writeModes {
		t.Run(m.name, func(t *testing.T) {
			key := newWidget(t, e.Client)
			p := fetchApply(t, e.Client, key, m.opt)
			p.Object().Status.Items = []string{"x", "y"}
			if err := p.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			other := fetchApply(t, e.Client, key, patcher.WithFieldOwner("other-controller"))
			if err := other.ApplyStatus(map[string]any{"items": []string{"x", "w"}}); err != nil {
				t.Fatal(err)
			}
			if err := other.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			p = fetchApply(t, c, key, m.opt)
			p.Object().Status.Items = slices.DeleteFunc(slices.Clone(p.Object().Status.Items), func(s string) bool { return s == "x" })
			sent := statusWrites(rec)
			err := p.Flush(ctx)
			got := get(t, e.Client, key)
			if m.name == "merge" {
				if err != nil || slices.Contains(got.Status.Items, "x") {
					t.Fatalf("merge mode: Flush = %v, stored %v; want x removed", err, got.Status.Items)
				}
				return
			}
			if !errors.Is(err, patcher.ErrApplyCannotRemove) || !strings.Contains(err.Error(), "other-controller") || statusWrites(rec) != sent {
				t.Fatalf("Flush = %v after %d writes; want ErrApplyCannotRemove naming other-controller, nothing sent", err, statusWrites(rec)-sent)
			}
			if !slices.Contains(got.Status.Items, "x") {
				t.Fatalf("stored %v: want x kept", got.Status.Items)
			}
			p = fetchApply(t, e.Client, key, m.opt)
			p.Object().Status.Items = append(p.Object().Status.Items, "z")
			if err := p.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			other = fetchApply(t, e.Client, key, patcher.WithFieldOwner("other-controller"))
			if err := other.ApplyStatus(map[string]any{"items": []string{"x"}}); err != nil { // drops w
				t.Fatal(err)
			}
			if err := other.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			got = get(t, e.Client, key)
			slices.Sort(got.Status.Items)
			if strings.Join(got.Status.Items, ",") != "x,y,z" {
				t.Fatalf("stored %v: want x,y,z (w was the other controller's alone)", got.Status.Items)
			}
		})
	}
}

// Two conditions of one type, and (ApplyStatus) a condition with an
// invalid reason: ErrInvalidCondition before anything is sent, not a
// server error blamed on the CRD ("the installed CRD's status schema lacks
// a field"). Merge mode leaves the duplicate to the server, which refuses
// it: an error, nothing stored, and no blame on the CRD either.
func TestApplyInvalidConditionsAreRefusedBeforeSending(t *testing.T) {
	e := env(t)
	c, rec := countingClient(t, e)
	for _, m := range writeModes {
		t.Run(m.name, func(t *testing.T) {
			key := newWidget(t, e.Client)
			p := fetchApply(t, c, key, m.opt)
			p.Object().Status.Conditions = []metav1.Condition{cond("Ready", "Up"), cond("Ready", "Down")}
			sent := statusWrites(rec)
			err := p.Flush(ctx)
			if err == nil || strings.Contains(err.Error(), "lacks a field") || len(get(t, e.Client, key).Status.Conditions) != 0 {
				t.Fatalf("duplicate type: Flush = %v; want a refusal not blamed on the CRD, nothing stored", err)
			}
			if m.name == "merge" {
				return
			}
			if !errors.Is(err, patcher.ErrInvalidCondition) || statusWrites(rec) != sent {
				t.Fatalf("duplicate type: Flush = %v after %d writes; want ErrInvalidCondition, nothing sent", err, statusWrites(rec)-sent)
			}
			for name, status := range map[string]any{
				"invalid reason": map[string]any{"conditions": []any{map[string]any{"type": "Ready", "status": "True", "reason": "not valid!", "message": ""}}},
				"duplicate type": map[string]any{"conditions": []any{
					map[string]any{"type": "Ready", "status": "True", "reason": "Up", "message": ""},
					map[string]any{"type": "Ready", "status": "False", "reason": "Down", "message": ""}}},
			} {
				p := fetchApply(t, c, key, m.opt)
				if err := p.ApplyStatus(status); err != nil && !errors.Is(err, patcher.ErrInvalidCondition) {
					t.Fatalf("ApplyStatus(%s) = %v", name, err)
				}
				sent := statusWrites(rec)
				if err := p.Flush(ctx); !errors.Is(err, patcher.ErrInvalidCondition) || statusWrites(rec) != sent {
					t.Fatalf("ApplyStatus(%s): Flush = %v after %d writes; want ErrInvalidCondition, nothing sent", name, err, statusWrites(rec)-sent)
				}
			}
		})
	}
}

// Without the lock a decision is still stored over what it did not see:
// the fresh read before the apply keeps the fields the decision did not
// change, not an atomic list the decision rewrote from a stale read. The
// other writer's "theirs" is lost, nil error (docs/apply.md, "What the
// no-lock variant gives up"). With the lock the write is a 409 and Retry
// keeps both.
func TestApplyWithoutLockStillLosesAnUnseenListValue(t *testing.T) {
	e := env(t)
	for _, m := range writeModes[1:] {
		t.Run(m.name, func(t *testing.T) {
			key := newWidget(t, e.Client)
			stale := fetchApply(t, e.Client, key, m.opt)
			w := get(t, e.Client, key)
			base := w.DeepCopy()
			w.Status.Items = append(w.Status.Items, "theirs")
			if err := e.Client.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})); err != nil {
				t.Fatal(err)
			}
			err := stale.Retry(ctx, func(w *v1.Widget) error {
				if !slices.Contains(w.Status.Items, "mine") {
					w.Status.Items = append(w.Status.Items, "mine")
				}
				return nil
			})
			got := strings.Join(get(t, e.Client, key).Status.Items, ",")
			want := "theirs,mine"
			if m.name == "apply-without-lock" {
				want = "mine"
			}
			if err != nil || got != want {
				t.Fatalf("Retry = %v, stored items %q; want %q", err, got, want)
			}
		})
	}
}

// Without the lock, a map the stale base lacked: the decision adds its key
// over the keys the server holds now (another controller's), taking none
// and removing none. Seen first as a flaky ErrApplyCannotRemove in
// TestApplyWithoutLockDisjointWritersBothLand; here without a race.
func TestApplyWithoutLockAddsToAMapTheBaseLacked(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	unlocked := patcher.WithWriteMode(patcher.WriteApplyWithoutLock)
	stale := fetchApply(t, e.Client, key, patcher.WithFieldOwner("beta"), unlocked)
	alpha := fetchApply(t, e.Client, key, patcher.WithFieldOwner("alpha"), unlocked)
	alpha.Object().Status.Counters = map[string]int64{"alpha": 1}
	if err := alpha.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	stale.Object().Status.Counters = map[string]int64{"beta": 2}
	if err := stale.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if got := get(t, e.Client, key).Status.Counters; got["alpha"] != 1 || got["beta"] != 2 || len(got) != 2 {
		t.Fatalf("stored counters %v; want alpha 1 and beta 2", got)
	}
}
