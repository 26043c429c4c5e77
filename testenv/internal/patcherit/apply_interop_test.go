package patcherit_test

import (
	"errors"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1ac "k8s.io/client-go/applyconfigurations/meta/v1"

	acv1 "github.com/statuspatch/statuspatch/internal/testapi/applyconfiguration/testapi/v1"
	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// controller-gen's applyconfiguration output (testapi/applyconfiguration)
// given to ApplyStatus: applied as it is, the condition completed from the
// base, the same configuration again sends nothing, and inside Retry a
// stale start conflicts once and is applied on fresh state.
func TestApplyStatusTakesControllerGenApplyConfiguration(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	c, rec := countingClient(t, e)
	config := func(phase string) *acv1.WidgetStatusApplyConfiguration {
		return acv1.WidgetStatus().WithPhase(phase).
			WithPlan(acv1.WidgetPlan().WithID("p1").WithSteps("a", "b")).
			WithConditions(metav1ac.Condition().WithType("Ready").WithStatus(metav1.ConditionTrue).WithReason("Up").WithMessage(""))
	}
	for range 2 {
		p := fetchApply(t, c, key)
		if err := p.ApplyStatus(config("Running")); err != nil {
			t.Fatal(err)
		}
		if err := p.Flush(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if n := statusWrites(rec); n != 1 {
		t.Fatalf("%d status writes for the same configuration twice, want 1", n)
	}
	got := get(t, e.Client, key)
	if got.Status.Phase != "Running" || got.Status.Plan == nil || got.Status.Plan.ID != "p1" ||
		apierrors.FindStatusCondition(got.Status.Conditions, "Ready") == nil {
		t.Fatalf("server status %+v", got.Status)
	}

	stale := fetchApply(t, c, key)
	other := fetchApply(t, ownClient(t), key, patcher.WithFieldOwner("other-controller"))
	other.Object().Status.Items = []string{"theirs"}
	if err := other.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	runs := 0
	if err := stale.Retry(ctx, func(w *v1.Widget) error {
		runs++
		return stale.ApplyStatus(config("Done").WithObservedGeneration(w.Generation))
	}); err != nil || runs != 2 {
		t.Fatalf("Retry = %v after %d runs; want success on the second", err, runs)
	}
	got = get(t, e.Client, key)
	if got.Status.Phase != "Done" || strings.Join(got.Status.Items, ",") != "theirs" {
		t.Fatalf("server status %+v: want phase Done and the other controller's items", got.Status)
	}
}

// What ApplyStatus refuses, before anything is sent, and says so again at
// Flush: the object's configuration instead of its status, a nil status, a
// merge-mode patcher, and a status given together with in-memory changes.
func TestApplyStatusRefusals(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	c, rec := countingClient(t, e)
	var nilConfig *acv1.WidgetStatusApplyConfiguration
	cases := map[string]struct {
		opts   []patcher.Option
		status any
		mutate func(*v1.Widget)
		want   string
		flush  bool // refused by Flush only
	}{
		"object configuration": {status: acv1.Widget(key.Name, key.Namespace).WithStatus(acv1.WidgetStatus().WithPhase("x")), want: "not the object's"},
		"nil":                  {status: nilConfig, want: "nil status"},
		"not an object":        {status: []string{"x"}, want: "JSON object"},
		"keyless condition":    {status: map[string]any{"conditions": []any{map[string]any{"status": "True"}}}, want: `no key field "type"`, flush: true},
		"merge mode":           {opts: []patcher.Option{patcher.WithWriteMode(patcher.WriteMergePatch)}, status: acv1.WidgetStatus(), want: "WithWriteMode(WriteApply)"},
		"mixed": {status: acv1.WidgetStatus().WithPhase("x"), mutate: func(w *v1.Widget) { w.Status.Counters = map[string]int64{"a": 1} },
			want: "status.counters", flush: true},
	}
	var none *patcher.Patcher[*v1.Widget]
	if err := none.ApplyStatus(acv1.WidgetStatus()); !errors.Is(err, patcher.ErrNilPatcher) {
		t.Fatalf("ApplyStatus on a nil patcher = %v", err)
	}
	for name, tc := range cases {
		p := fetchApply(t, c, key, tc.opts...)
		err := p.ApplyStatus(tc.status)
		if tc.flush && err != nil {
			t.Fatalf("%s: ApplyStatus = %v", name, err)
		}
		if tc.mutate != nil {
			tc.mutate(p.Object())
		}
		ferr := p.Flush(ctx)
		if !errors.Is(ferr, patcher.ErrInvalidInput) || !strings.Contains(ferr.Error(), tc.want) || (!tc.flush && !errors.Is(err, patcher.ErrInvalidInput)) {
			t.Fatalf("%s: ApplyStatus = %v, Flush = %v; want ErrInvalidInput mentioning %q", name, err, ferr, tc.want)
		}
	}
	if n := statusWrites(rec); n != 0 {
		t.Fatalf("%d status writes, want none", n)
	}
}

// Apply mode needs a field manager: without WithFieldOwner the patcher
// says so. A manager's defaults (WithDefaults) can choose apply mode and
// one patcher can go back to merge patches.
func TestApplyModeOptions(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	if _, err := patcher.Fetch(ctx, e.Client, key, &v1.Widget{}, patcher.WithWriteMode(patcher.WriteApply)); !errors.Is(err, patcher.ErrInvalidInput) || !strings.Contains(err.Error(), "WithFieldOwner") {
		t.Fatalf("Fetch with WithApply and no field owner = %v; want ErrInvalidInput naming WithFieldOwner", err)
	}
	raw, rec := countingClient(t, e)
	mgr := patcher.WithDefaults(raw, patcher.WithFieldOwner(applier), patcher.WithWriteMode(patcher.WriteApply))
	for i, opts := range [][]patcher.Option{nil, {patcher.WithWriteMode(patcher.WriteMergePatch)}} {
		p, err := patcher.Fetch(ctx, mgr, key, &v1.Widget{}, opts...)
		if err != nil {
			t.Fatal(err)
		}
		p.Object().Status.Phase = []string{"Applied", "Merged"}[i]
		if err := p.Flush(ctx); err != nil {
			t.Fatal(err)
		}
	}
	var kinds []string
	for _, r := range rec.requests() {
		if r.Method == "PATCH" {
			kinds = append(kinds, map[bool]string{true: "apply", false: "merge"}[strings.Contains(string(r.Body), `"apiVersion"`)])
		}
	}
	if strings.Join(kinds, ",") != "apply,merge" {
		t.Fatalf("writes %v, want apply then merge", kinds)
	}
}

// A kind that moves from merge mode to apply mode: what the controller
// wrote with merge patches belongs to its Update entry, which an apply
// does not replace; removing such a field in apply mode is refused and the
// error names the Update entry.
func TestApplyAfterMergeModeCannotRemoveUpdateOwnedField(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	merge, err := patcher.Fetch(ctx, e.Client, key, &v1.Widget{}, patcher.WithFieldOwner(applier))
	if err != nil {
		t.Fatal(err)
	}
	merge.Object().Status.Phase = "Running"
	if err := merge.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	p := fetchApply(t, e.Client, key)
	p.Object().Status.Phase = ""
	if err := p.Flush(ctx); !errors.Is(err, patcher.ErrApplyCannotRemove) || !strings.Contains(err.Error(), applier+" (Update, status)") {
		t.Fatalf("Flush = %v; want ErrApplyCannotRemove naming %s (Update, status)", err, applier)
	}
}
