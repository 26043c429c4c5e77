package patcherit_test

import (
	"errors"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// Apply mode under attack: inputs, call orders, faults and co-writers the
// other apply tests do not show (docs/apply.md).

// An int64 beyond 2^53 (a counter, a generation) is stored exactly, by the
// mutation route and by ApplyStatus, and the next Flush sends nothing. The
// apply was built from JSON decoded into float64s: 2^53+1 was stored as
// 2^53, silently, and read back it matched what was "sent".
func TestApplyKeepsInt64Exact(t *testing.T) {
	e := env(t)
	c, rec := countingClient(t, e)
	key := newWidget(t, e.Client)
	const big, huge = int64(1<<53 + 1), int64(1<<62 + 1)
	p := fetchApply(t, c, key, patcher.WithDivergenceError())
	p.Object().Status.Counters = map[string]int64{"big": big}
	p.Object().Status.ObservedGeneration = huge
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	got := get(t, e.Client, key)
	if got.Status.Counters["big"] != big || got.Status.ObservedGeneration != huge || p.Object().Status.Counters["big"] != big {
		t.Fatalf("stored counters %v, observedGeneration %d (in memory %v); want %d and %d", got.Status.Counters, got.Status.ObservedGeneration,
			p.Object().Status.Counters, big, huge)
	}
	if err := p.ApplyStatus(map[string]any{"counters": map[string]int64{"big": big + 2}, "observedGeneration": huge}); err != nil {
		t.Fatal(err)
	}
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if got := get(t, e.Client, key); got.Status.Counters["big"] != big+2 || got.Status.ObservedGeneration != huge {
		t.Fatalf("ApplyStatus stored counters %v, observedGeneration %d; want %d and %d", got.Status.Counters, got.Status.ObservedGeneration, big+2, huge)
	}
	sent := statusWrites(rec)
	if err := p.ApplyStatus(map[string]any{"counters": map[string]int64{"big": big + 2}, "observedGeneration": huge}); err != nil {
		t.Fatal(err)
	}
	if err := p.Flush(ctx); err != nil || statusWrites(rec) != sent {
		t.Fatalf("the same ApplyStatus again = %v after %d writes; want a no-op", err, statusWrites(rec)-sent)
	}
}

// ApplyStatus, then a Flush whose response is lost after the server stored
// the apply: the settle finds it stored and Flush succeeds. The status given
// to ApplyStatus was then still pending: the next Flush of an in-memory
// change was refused ("both ApplyStatus and in-memory status changes"),
// and HasChanges depended on it.
func TestALandedApplyStatusIsDone(t *testing.T) {
	e := env(t)
	for _, f := range []plannedFault{{kind: fault5xx, after: true}, {kind: faultReset, after: true}, {kind: fault5xxRetryAfter, after: true}} {
		t.Run(f.String(), func(t *testing.T) {
			key := newWidget(t, e.Client)
			ft := &faultyTransport{plan: []plannedFault{f}}
			p, err := patcher.Fetch(ctx, faultyClient(t, e, ft), key, &v1.Widget{}, patcher.WithMetrics(nil),
				patcher.WithFieldOwner(applier), patcher.WithWriteMode(patcher.WriteApply))
			if err != nil {
				t.Fatal(err)
			}
			if err := p.ApplyStatus(map[string]any{"phase": "Running"}); err != nil {
				t.Fatal(err)
			}
			if err := p.Flush(ctx); err != nil || p.HasChanges() {
				t.Fatalf("Flush = %v, changes %v; want the landed apply recognised", err, p.HasChanges())
			}
			p.Object().Status.Items = []string{"next"}
			if err := p.Flush(ctx); err != nil {
				t.Fatalf("the next Flush of an in-memory change = %v", err)
			}
			if got := get(t, e.Client, key); got.Status.Phase != "Running" || len(got.Status.Items) != 1 {
				t.Fatalf("stored %+v; want the phase and the item", got.Status)
			}
		})
	}
}

// A drifted CRD (divergence_test.go: status.plan missing from the schema,
// status.phase defaulted).
//
// A field the schema lacks: server-side apply refuses the whole apply, with
// a 500 (kubernetes/kubernetes#122480), before anything is stored. Flush
// took the 500 for a write that may have landed, sent the same apply three
// more times and returned ErrWriteOutcomeUnknown. Now: one request, an
// error naming the field and the schema, the same on every Flush.
//
// A defaulted field the caller leaves out (a status rebuilt from scratch):
// no manager owns a default, so Flush refused with ErrApplyCannotRemove on
// every reconcile, sending nothing, though the server takes the apply.
// Now the apply is sent and the default the server keeps is a divergence
// ("defaulted"), as in merge mode.
func TestApplyOnADriftedCRD(t *testing.T) {
	// A default of its own: divergences are logged once per kind and path
	// per process, and TestDivergenceIsReportedOncePerPath counts phase's.
	e := driftedEnvWith(t, func(status *apiextensionsv1.JSONSchemaProps) {
		og := status.Properties["observedGeneration"]
		og.Default = &apiextensionsv1.JSON{Raw: []byte(`7`)}
		status.Properties["observedGeneration"] = og
	})
	c, rec := countingClient(t, e)
	t.Run("a field the schema lacks", func(t *testing.T) {
		key := newWidget(t, e.Client)
		for round := range 2 {
			p := fetchApply(t, c, key)
			sent := statusWrites(rec)
			p.Object().Status.Plan = &v1.WidgetPlan{ID: "p1"}
			p.Object().Status.Items = []string{"a"}
			err := p.Flush(ctx)
			if err == nil || errors.Is(err, patcher.ErrWriteOutcomeUnknown) || !strings.Contains(err.Error(), ".status.plan: field not declared in schema") ||
				!strings.Contains(err.Error(), "nothing was stored") || statusWrites(rec)-sent != 1 {
				t.Fatalf("round %d: Flush = %v after %d requests; want the refusal, once, naming the field", round, err, statusWrites(rec)-sent)
			}
			if err := p.ApplyStatus(map[string]any{"plan": map[string]any{"id": "p1"}}); err != nil {
				t.Fatal(err)
			}
			p.Object().Status = get(t, e.Client, key).Status
			sent = statusWrites(rec)
			if err := p.Flush(ctx); err == nil || errors.Is(err, patcher.ErrWriteOutcomeUnknown) || statusWrites(rec)-sent != 1 {
				t.Fatalf("round %d: ApplyStatus's Flush = %v after %d requests; want the refusal, once", round, err, statusWrites(rec)-sent)
			}
		}
		if got := get(t, e.Client, key); len(got.Status.Items) != 0 {
			t.Fatalf("stored %+v; the server refused every apply", got.Status)
		}
	})
	t.Run("a defaulted field left out", func(t *testing.T) {
		key := newWidget(t, e.Client)
		p := fetchApply(t, c, key)
		p.Object().Status.Items = []string{"a"}
		if err := p.Flush(ctx); err != nil || p.Object().Status.ObservedGeneration != 7 {
			t.Fatalf("Flush = %v, observedGeneration %d; want nil and the default, no divergence", err, p.Object().Status.ObservedGeneration)
		}
		for _, divergenceErr := range []bool{false, true} {
			p := fetchApply(t, c, key)
			if divergenceErr {
				p = fetchApply(t, c, key, patcher.WithDivergenceError())
			}
			p.Object().Status = v1.WidgetStatus{Items: []string{"b"}, Phase: "Pending"} // rebuilt: no observedGeneration
			err := p.Flush(ctx)
			var de *patcher.StatusDivergedError
			switch {
			case !divergenceErr && err != nil:
				t.Fatalf("Flush = %v; want the apply sent, the default reported, no error", err)
			case divergenceErr && (!errors.As(err, &de) || len(de.Paths) != 1 || de.Paths[0] != patcher.Divergence{Path: "status.observedGeneration", Cause: "defaulted"}):
				t.Fatalf("Flush with WithDivergenceError = %v; want status.observedGeneration (defaulted)", err)
			}
			if got := get(t, e.Client, key); got.Status.ObservedGeneration != 7 || len(got.Status.Items) != 1 || got.Status.Items[0] != "b" {
				t.Fatalf("stored %+v; want the items and the default", got.Status)
			}
		}
	})
}

// WithListMapKeys on a list whose items have no such key (a list of
// scalars, a misspelt key): a change is refused as ErrInvalidInput, and so
// is a removal. The removal skipped the items it could not key: Flush
// returned nil, sent an apply without the list, and the server kept the
// list another manager owns.
func TestApplyListMapKeysOnUnkeyableItemsIsRefused(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	other, err := patcher.Fetch(ctx, e.Client, key, &v1.Widget{}, patcher.WithFieldOwner("merger"))
	if err != nil {
		t.Fatal(err)
	}
	other.Object().Status.Items = []string{"a"}
	if err := other.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	for _, items := range [][]string{nil, {"b"}} {
		p := fetchApply(t, e.Client, key, patcher.WithListMapKeys("status.items", "name"))
		p.Object().Status.Items = items
		if err := p.Flush(ctx); !errors.Is(err, patcher.ErrInvalidInput) || !strings.Contains(err.Error(), "status.items") {
			t.Fatalf("items %v: Flush = %v; want ErrInvalidInput naming status.items", items, err)
		}
	}
	if got := get(t, e.Client, key).Status.Items; len(got) != 1 || got[0] != "a" {
		t.Fatalf("stored items %v", got)
	}
}
