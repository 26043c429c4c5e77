package patcherit_test

import (
	"net/http"
	"strings"
	"testing"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// changeOutsideStatus makes the in-memory changes a status subresource
// write leaves unsent, and one status change.
func changeOutsideStatus(w *v1.Widget, phase string) {
	w.Spec.Size = 42
	w.Labels = map[string]string{"team": "a"}
	w.Annotations = map[string]string{"note": "unsent"}
	w.Status.Phase = phase
}

// sameOutsideManagers fails unless a and b, two stored Widgets, hold the
// same labels, annotations, spec and status.
func sameOutsideManagers(t *testing.T, what string, a, b *v1.Widget) {
	t.Helper()
	if !apiequality.Semantic.DeepEqual(a.Labels, b.Labels) || !apiequality.Semantic.DeepEqual(a.Annotations, b.Annotations) ||
		!apiequality.Semantic.DeepEqual(a.Spec, b.Spec) || !apiequality.Semantic.DeepEqual(a.Status, b.Status) {
		t.Fatalf("%s:\n%+v %+v %+v %+v\nwant\n%+v %+v %+v %+v", what,
			a.Labels, a.Annotations, a.Spec, a.Status, b.Labels, b.Annotations, b.Spec, b.Status)
	}
}

// TestNonStatusChangesUnsentStoresAsStatusUpdate: with
// WithNonStatusChangesUnsent a Flush stores what Status().Update stores
// for the same in-memory changes, and the object in memory is the server's
// answer, as after Status().Update.
func TestNonStatusChangesUnsentStoresAsStatusUpdate(t *testing.T) {
	e := env(t)
	c, rec := countingClient(t, e)
	byUpdate := get(t, e.Client, newWidget(t, e.Client))
	changeOutsideStatus(byUpdate, "Ready")
	if err := e.Client.Status().Update(ctx, byUpdate); err != nil {
		t.Fatal(err)
	}

	key := newWidget(t, e.Client)
	p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, patcher.WithNonStatusChangesUnsent())
	if err != nil {
		t.Fatal(err)
	}
	baseRV := p.Object().ResourceVersion
	changeOutsideStatus(p.Object(), "Ready")
	before := len(rec.requests())
	if err := p.Flush(ctx); err != nil {
		t.Fatalf("Flush = %v, want the status written and the rest left unsent", err)
	}
	sent := rec.requests()[before:]
	if len(sent) != 1 || sent[0].Method != http.MethodPatch || !strings.HasSuffix(sent[0].Path, "/status") ||
		!strings.Contains(string(sent[0].Body), `"resourceVersion":"`+baseRV+`"`) {
		t.Fatalf("requests %+v, want one status PATCH locked at resourceVersion %s", sent, baseRV)
	}
	stored := get(t, e.Client, key)
	sameOutsideManagers(t, "stored by Flush", stored, get(t, e.Client, client.ObjectKeyFromObject(byUpdate)))
	if stored.Spec.Size != 1 || stored.Labels != nil || stored.Status.Phase != "Ready" {
		t.Fatalf("stored %+v %+v %+v, want the spec and labels as created, status Ready", stored.Spec, stored.Labels, stored.Status)
	}
	// In memory: the server's answer, as Status().Update's.
	sameOutsideManagers(t, "in memory after Flush", p.Object(), stored)
	sameOutsideManagers(t, "in memory after Status().Update", byUpdate, get(t, e.Client, client.ObjectKeyFromObject(byUpdate)))
	if p.Object().ResourceVersion != stored.ResourceVersion {
		t.Fatalf("in memory resourceVersion %s, stored %s", p.Object().ResourceVersion, stored.ResourceVersion)
	}

	// Nothing to write: no request, and the object is back to the base.
	p.Object().Spec.Size = 7
	p.Object().Labels = map[string]string{"team": "b"}
	before = len(rec.requests())
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(rec.requests()) - before; n != 0 {
		t.Fatalf("a Flush with nothing to write sent %d requests", n)
	}
	sameOutsideManagers(t, "in memory after a Flush with nothing to write", p.Object(), get(t, e.Client, key))
}

// TestNonStatusChangesUnsentRetry: Retry re-reads after a Conflict, runs
// mutate on the fresh object and writes only its status; the changes
// mutate made outside status are never stored.
func TestNonStatusChangesUnsentRetry(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	p, err := patcher.Fetch(ctx, e.Client, key, &v1.Widget{},
		patcher.WithNonStatusChangesUnsent(), patcher.WithAPIReader(e.Client))
	if err != nil {
		t.Fatal(err)
	}
	// Another writer's status write: the patcher's base is now stale.
	other := get(t, e.Client, key)
	other.Status.Phase = "Other"
	if err := e.Client.Status().Update(ctx, other); err != nil {
		t.Fatal(err)
	}
	var seen []string
	err = p.Retry(ctx, func(w *v1.Widget) error {
		seen = append(seen, w.Status.Phase)
		w.Spec.Size = 42
		w.Labels = map[string]string{"team": "a"}
		w.Status.Items = append(w.Status.Items, "mine")
		return nil
	})
	if err != nil {
		t.Fatalf("Retry = %v", err)
	}
	if len(seen) != 2 || seen[0] != "" || seen[1] != "Other" {
		t.Fatalf("mutate saw phases %q, want a first attempt on the stale object and a second on the re-read", seen)
	}
	stored := get(t, e.Client, key)
	if stored.Status.Phase != "Other" || len(stored.Status.Items) != 1 || stored.Status.Items[0] != "mine" ||
		stored.Spec.Size != 1 || stored.Labels != nil {
		t.Fatalf("stored %+v %+v %+v, want the other writer's phase, our item, and spec and labels as created", stored.Spec, stored.Labels, stored.Status)
	}
	sameOutsideManagers(t, "in memory after Retry", p.Object(), stored)
}

// TestApplyEmptyingANestedObjectIsRefused: in apply mode (here with
// WithNonStatusChangesUnsent, as the unsent schedules run it) a decision
// that empties a nested object whose fields this manager alone owns
// (status.plan = {}) is refused by the server as removing every status
// field is (docs/apply.md): a 422, nothing stored, the object in memory as
// it was; merge mode stores it.
func TestApplyEmptyingANestedObjectIsRefused(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	p, err := patcher.Fetch(ctx, e.Client, key, &v1.Widget{}, patcher.WithNonStatusChangesUnsent(),
		patcher.WithWriteMode(patcher.WriteApply), patcher.WithFieldOwner("unsent-apply"))
	if err != nil {
		t.Fatal(err)
	}
	p.Object().Status.Phase = "Ready"
	p.Object().Status.Plan = &v1.WidgetPlan{ID: "x"}
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	stored := get(t, e.Client, key)
	p.Object().Labels = map[string]string{"ours": "unsent"}
	p.Object().Status.Plan = &v1.WidgetPlan{}
	before := p.Object().DeepCopy()
	err = p.Flush(ctx)
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "status.plan") {
		t.Fatalf("Flush = %v, want the server's 422 for status.plan", err)
	}
	if now := get(t, e.Client, key); now.ResourceVersion != stored.ResourceVersion {
		t.Fatalf("stored resourceVersion %s, was %s", now.ResourceVersion, stored.ResourceVersion)
	}
	sameOutsideManagers(t, "in memory after the refusal", p.Object(), before)

	m, err := patcher.Fetch(ctx, e.Client, key, &v1.Widget{}, patcher.WithNonStatusChangesUnsent())
	if err != nil {
		t.Fatal(err)
	}
	m.Object().Status.Plan = &v1.WidgetPlan{}
	if err := m.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if now := get(t, e.Client, key); now.Status.Plan == nil || now.Status.Plan.ID != "" {
		t.Fatalf("merge mode stored plan %+v, want {}", now.Status.Plan)
	}
}
