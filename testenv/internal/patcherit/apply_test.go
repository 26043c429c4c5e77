package patcherit_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// Apply mode on the real server (docs/apply.md).

const applier = "apply-controller"

func fetchApply(t *testing.T, c client.Client, key client.ObjectKey, opts ...patcher.Option) *patcher.Patcher[*v1.Widget] {
	t.Helper()
	p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, append([]patcher.Option{patcher.WithFieldOwner(applier), patcher.WithWriteMode(patcher.WriteApply)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// statusWrites counts the PATCH requests to the status subresource.
func statusWrites(rec *recorder) int {
	n := 0
	for _, r := range rec.requests() {
		if r.Method == "PATCH" && strings.HasSuffix(r.Path, "/status") {
			n++
		}
	}
	return n
}

// managers lists the field managers of the object's status.
func statusManagers(w *v1.Widget) map[string]string {
	out := map[string]string{}
	for _, m := range w.ManagedFields {
		if m.Subresource == "status" {
			out[m.Manager] = string(m.Operation)
		}
	}
	return out
}

// A first apply, then a reconcile that changes one field: the fields this
// manager set before and did not touch now are still in the apply (an
// apply that left them out would make the server remove them), and the
// write is an Apply under the field owner.
func TestApplyKeepsOwnedFieldsItDidNotChange(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	p := fetchApply(t, e.Client, key)
	p.Object().Status.Phase = "Running"
	p.Object().Status.Plan = &v1.WidgetPlan{ID: "p1", Steps: []string{"a"}}
	meta.SetStatusCondition(&p.Object().Status.Conditions, cond("Ready", "Up"))
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	p = fetchApply(t, e.Client, key)
	p.Object().Status.Counters = map[string]int64{"seen": 1}
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	got := get(t, e.Client, key)
	if got.Status.Phase != "Running" || got.Status.Plan == nil || got.Status.Plan.ID != "p1" || got.Status.Counters["seen"] != 1 ||
		meta.FindStatusCondition(got.Status.Conditions, "Ready") == nil {
		t.Fatalf("server status %+v: want the first apply's fields kept and the counter added", got.Status)
	}
	if m := statusManagers(got); m[applier] != "Apply" {
		t.Fatalf("status managers %v: want %s as Apply", m, applier)
	}
}

// A field this manager alone owns, removed in memory: the apply leaves it
// out and the server removes it.
func TestApplyRemovesAFieldItOwns(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	p := fetchApply(t, e.Client, key)
	p.Object().Status.Phase = "Running"
	p.Object().Status.Items = []string{"a"}
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	p.Object().Status.Phase = ""
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if got := get(t, e.Client, key); got.Status.Phase != "" || len(got.Status.Items) != 1 {
		t.Fatalf("server status %+v: want phase removed, items kept", got.Status)
	}
}

// A field another manager owns, removed in memory: an apply cannot remove
// it, so Flush sends nothing and says whose it is.
func TestApplyRefusesToRemoveAnotherManagersField(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	other := fetchApply(t, e.Client, key, patcher.WithFieldOwner("other-controller"))
	other.Object().Status.Phase = "Theirs"
	meta.SetStatusCondition(&other.Object().Status.Conditions, cond("Other", "Theirs"))
	if err := other.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	c, rec := countingClient(t, e)
	for name, remove := range map[string]func(w *v1.Widget){
		"field":     func(w *v1.Widget) { w.Status.Phase = "" },
		"condition": func(w *v1.Widget) { meta.RemoveStatusCondition(&w.Status.Conditions, "Other") },
	} {
		p := fetchApply(t, c, key)
		remove(p.Object())
		err := p.Flush(ctx)
		var cr *patcher.ApplyCannotRemoveError
		if !errors.Is(err, patcher.ErrApplyCannotRemove) || !errors.As(err, &cr) || !strings.Contains(err.Error(), "other-controller (Apply, status)") {
			t.Fatalf("%s: Flush = %v; want ErrApplyCannotRemove naming other-controller", name, err)
		}
		t.Logf("%s: %v", name, err)
	}
	if n := statusWrites(rec); n != 0 {
		t.Fatalf("%d status writes sent; want none", n)
	}
	if got := get(t, e.Client, key); got.Status.Phase != "Theirs" || meta.FindStatusCondition(got.Status.Conditions, "Other") == nil {
		t.Fatalf("server status %+v: want the other controller's fields", got.Status)
	}
}

// Two controllers each own their condition. Each applies its own without
// the other's in its apply: the other's condition is never touched, in
// the mutation route and with ApplyStatus.
func TestApplyLeavesAnotherControllersCondition(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	other := fetchApply(t, e.Client, key, patcher.WithFieldOwner("other-controller"))
	theirs := cond("Other", "Theirs")
	theirs.LastTransitionTime = metav1.Date(2020, 1, 1, 0, 0, 0, 0, metav1.Now().Location())
	meta.SetStatusCondition(&other.Object().Status.Conditions, theirs)
	if err := other.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	want := *meta.FindStatusCondition(get(t, e.Client, key).Status.Conditions, "Other")

	p := fetchApply(t, e.Client, key)
	meta.SetStatusCondition(&p.Object().Status.Conditions, cond("Ready", "Up"))
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	p = fetchApply(t, e.Client, key)
	if err := p.ApplyStatus(map[string]any{"conditions": []map[string]any{{"type": "Ready", "status": "False", "reason": "Down", "message": ""}}}); err != nil {
		t.Fatal(err)
	}
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	got := get(t, e.Client, key)
	if c := meta.FindStatusCondition(got.Status.Conditions, "Other"); c == nil || *c != want {
		t.Fatalf("the other controller's condition is %+v, want %+v untouched", c, want)
	}
	if c := meta.FindStatusCondition(got.Status.Conditions, "Ready"); c == nil || c.Status != metav1.ConditionFalse {
		t.Fatalf("Ready is %+v, want False", c)
	}
	if m := statusManagers(got); m["other-controller"] != "Apply" || m[applier] != "Apply" {
		t.Fatalf("status managers %v: want both as Apply", m)
	}
}

// ApplyStatus with a condition without lastTransitionTime: the base's is
// kept while the status stays, a new one is set when it changes;
// observedGeneration comes from the object read.
func TestApplyStatusKeepsLastTransitionTime(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	old := "2020-01-01T00:00:00Z"
	apply := func(status map[string]any) *v1.Widget {
		t.Helper()
		p := fetchApply(t, e.Client, key)
		if err := p.ApplyStatus(status); err != nil {
			t.Fatal(err)
		}
		if err := p.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		if p.Object().ResourceVersion != get(t, e.Client, key).ResourceVersion {
			t.Fatal("the patcher's object is not the server's after the apply")
		}
		return p.Object()
	}
	ready := func(status, reason string) map[string]any {
		return map[string]any{"conditions": []any{map[string]any{"type": "Ready", "status": status, "reason": reason, "message": ""}}}
	}
	first := ready("True", "Up")
	first["conditions"].([]any)[0].(map[string]any)["lastTransitionTime"] = old
	apply(first)
	w := apply(ready("True", "StillUp")) // same status, new reason: no transition
	c := meta.FindStatusCondition(w.Status.Conditions, "Ready")
	if c == nil || c.LastTransitionTime.UTC().Format("2006-01-02T15:04:05Z") != old || c.Reason != "StillUp" {
		t.Fatalf("Ready after an unchanged status: %+v; want lastTransitionTime %s kept", c, old)
	}
	if c.ObservedGeneration != w.Generation || w.Generation == 0 {
		t.Fatalf("observedGeneration %d, want the object's generation %d", c.ObservedGeneration, w.Generation)
	}
	w = apply(ready("False", "Down"))
	if c := meta.FindStatusCondition(w.Status.Conditions, "Ready"); c == nil || c.LastTransitionTime.UTC().Format("2006-01-02T15:04:05Z") == old {
		t.Fatalf("Ready after a transition: %+v; want a new lastTransitionTime", c)
	}
}

// Nothing is sent when the status did not change, and, with ApplyStatus,
// when the server already holds the status given and this manager owns
// exactly its fields. A status that drops an owned field is sent.
func TestApplyNoopSendsNothing(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	c, rec := countingClient(t, e)
	status := func(phase string) map[string]any {
		s := map[string]any{
			"plan":       map[string]any{"id": "p1", "steps": []string{"a"}},
			"items":      []string{"x"},
			"counters":   map[string]int64{"a": 1},
			"conditions": []any{map[string]any{"type": "Ready", "status": "True", "reason": "Up", "message": ""}},
		}
		if phase != "" {
			s["phase"] = phase
		}
		return s
	}
	flush := func(s map[string]any) {
		t.Helper()
		p := fetchApply(t, c, key)
		if s != nil {
			if err := p.ApplyStatus(s); err != nil {
				t.Fatal(err)
			}
		}
		if err := p.Flush(ctx); err != nil {
			t.Fatal(err)
		}
	}
	flush(status("Running"))
	if n := statusWrites(rec); n != 1 {
		t.Fatalf("%d status writes for the first apply, want 1", n)
	}
	flush(status("Running"))
	flush(nil)
	if n := statusWrites(rec); n != 1 {
		t.Fatalf("%d status writes after the same apply and an unchanged Flush, want 1 (no-ops send nothing)", n)
	}
	flush(status(""))
	if n := statusWrites(rec); n != 2 {
		t.Fatalf("%d status writes after an apply that drops phase, want 2", n)
	}
	if got := get(t, e.Client, key); got.Status.Phase != "" || got.Status.Plan == nil {
		t.Fatalf("server status %+v: want phase removed, the rest kept", got.Status)
	}
}

// A stale apply: another writer wrote after the base. WithApply carries
// the base's resourceVersion, so the apply gets a 409, and Retry runs the
// mutation again on fresh state: nothing the other writer wrote is lost.
func TestApplyStaleGetsConflictAndRetryLosesNothing(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	stale := fetchApply(t, e.Client, key)
	other := fetchApply(t, ownClient(t), key, patcher.WithFieldOwner("other-controller"))
	other.Object().Status.Items = []string{"theirs"}
	if err := other.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	stale.Object().Status.Items = append(stale.Object().Status.Items, "mine")
	if err := stale.Flush(ctx); !apierrors.IsConflict(err) {
		t.Fatalf("stale Flush = %v, want a Conflict", err)
	}
	stale = fetchApply(t, e.Client, key)
	// The same stale start, through Retry: the first attempt conflicts.
	third := fetchApply(t, ownClient(t), key, patcher.WithFieldOwner("third-controller"))
	third.Object().Status.Phase = "Third"
	if err := third.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	attempts := 0
	err := stale.Retry(ctx, func(w *v1.Widget) error {
		attempts++
		w.Status.Items = append(w.Status.Items, "mine")
		return nil
	})
	if err != nil || attempts != 2 {
		t.Fatalf("Retry = %v after %d attempts; want success on the second", err, attempts)
	}
	got := get(t, e.Client, key)
	if strings.Join(got.Status.Items, ",") != "theirs,mine" || got.Status.Phase != "Third" {
		t.Fatalf("server status %+v: want items theirs,mine and phase Third", got.Status)
	}
}

// Finalizer helpers in apply mode: the finalizer write moves the base, and
// the status apply after it does not conflict with it.
func TestApplyAfterFinalizer(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	p := fetchApply(t, e.Client, key)
	p.Object().Status.Phase = "Running"
	if added, err := p.AddFinalizer(ctx, "statuspatch.dev/apply"); err != nil || !added {
		t.Fatalf("AddFinalizer = %v, %v", added, err)
	}
	if err := p.Flush(ctx); err != nil {
		t.Fatalf("Flush after AddFinalizer: %v", err)
	}
	p.Object().Status.Phase = "Done"
	if removed, err := p.RemoveFinalizer(ctx, "statuspatch.dev/apply"); err != nil || !removed {
		t.Fatalf("RemoveFinalizer = %v, %v", removed, err)
	}
	if err := p.Flush(ctx); err != nil {
		t.Fatalf("Flush after RemoveFinalizer: %v", err)
	}
	if got := get(t, e.Client, key); got.Status.Phase != "Done" || len(got.Finalizers) != 0 || statusManagers(got)[applier] != "Apply" {
		t.Fatalf("server: phase %q, finalizers %v, managers %v", got.Status.Phase, got.Finalizers, statusManagers(got))
	}
}

// stripping is a client whose every read's managedFields are dropped, as
// a cache with cache.TransformStripManagedFields serves them.
type stripping struct{ client.Client }

func (c stripping) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	if err := c.Client.Get(ctx, key, obj, opts...); err != nil {
		return err
	}
	obj.SetManagedFields(nil)
	return nil
}

// An object read through a cache that strips managedFields (many operators
// set cache.TransformStripManagedFields): the patcher reads them through
// the API reader, so the fields this manager owns and did not change stay
// in the apply and are not removed. Where no reader has them, Flush says so
// and sends nothing; where the object moved since the stripped read, a
// Conflict that Retry settles.
func TestApplyWithoutManagedFieldsReadsThemThroughTheAPIReader(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	p := fetchApply(t, e.Client, key)
	p.Object().Status.Phase = "Running"
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}

	cached := stripping{e.Client}
	p = fetchApply(t, cached, key, patcher.WithAPIReader(e.Client))
	if len(p.Object().ManagedFields) != 0 {
		t.Fatal("the stripping client served managedFields")
	}
	p.Object().Status.Counters = map[string]int64{"n": 1}
	if err := p.Flush(ctx); err != nil {
		t.Fatalf("Flush of a stripped read with an API reader: %v", err)
	}
	if got := get(t, e.Client, key).Status; got.Phase != "Running" || got.Counters["n"] != 1 {
		t.Fatalf("status after the apply = phase %q counters %v; want the owned phase kept and the counter written", got.Phase, got.Counters)
	}

	c, rec := countingClient(t, e)
	p = fetchApply(t, stripping{c}, key)
	p.Object().Status.Counters = map[string]int64{"n": 2}
	if err := p.Flush(ctx); !errors.Is(err, patcher.ErrInvalidInput) || !strings.Contains(err.Error(), "managedFields") {
		t.Fatalf("Flush with no reader serving managedFields = %v; want ErrInvalidInput naming managedFields", err)
	}
	if n := statusWrites(rec); n != 0 {
		t.Fatalf("%d status writes, want none", n)
	}

	p = fetchApply(t, cached, key, patcher.WithAPIReader(e.Client))
	other := get(t, e.Client, key)
	other.Labels = map[string]string{"moved": "yes"}
	if err := e.Client.Update(ctx, other); err != nil {
		t.Fatal(err)
	}
	p.Object().Status.Counters = map[string]int64{"n": 3}
	if err := p.Flush(ctx); !apierrors.IsConflict(err) {
		t.Fatalf("Flush of a stripped read of an object that moved since = %v; want a Conflict", err)
	}
	p = fetchApply(t, cached, key, patcher.WithAPIReader(e.Client))
	if err := p.Retry(ctx, func(w *v1.Widget) error { w.Status.Counters = map[string]int64{"n": 3}; return nil }); err != nil {
		t.Fatalf("Retry: %v", err)
	}
	if got := get(t, e.Client, key).Status; got.Phase != "Running" || got.Counters["n"] != 3 {
		t.Fatalf("status after Retry = phase %q counters %v; want the owned phase kept and the counter written", got.Phase, got.Counters)
	}
}
