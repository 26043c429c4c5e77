package patcherit_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr/funcr"
	"github.com/prometheus/client_golang/prometheus"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/log"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"
)

// driftedEnv starts a server whose Widget CRD drifted from the Go type the
// way real drift happens: status.plan is missing from the schema (an old
// CRD), and status.phase has a default the Go type does not know about.
func driftedEnv(t testing.TB) *testenv.Env {
	t.Helper()
	return driftedEnvWith(t, nil)
}

// driftedEnvWith is driftedEnv with more drift: more(status schema).
func driftedEnvWith(t testing.TB, more func(status *apiextensionsv1.JSONSchemaProps)) *testenv.Env {
	t.Helper()
	return widgetServer(t, "the drifted", func(crd *apiextensionsv1.CustomResourceDefinition) {
		widgetStatus(crd, func(status *apiextensionsv1.JSONSchemaProps) {
			delete(status.Properties, "plan")
			phase := status.Properties["phase"]
			phase.Default = &apiextensionsv1.JSON{Raw: []byte(`"Pending"`)}
			status.Properties["phase"] = phase
			if more != nil {
				more(status)
			}
		})
	})
}

// logLines collects the Info lines logged through the context.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) ctx(parent context.Context) context.Context {
	return log.IntoContext(parent, funcr.New(func(prefix, args string) {
		l.mu.Lock()
		l.lines = append(l.lines, args)
		l.mu.Unlock()
	}, funcr.Options{}))
}

func (l *logLines) matching(s string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, line := range l.lines {
		if strings.Contains(line, s) {
			n++
		}
	}
	return n
}

// Issue 11, divergence detection: a pruned and a defaulted field are
// reported once per path (and counted on every write); with
// WithDivergenceError the error names the paths; a normalisation the server
// always does (a time cut to seconds) is neither reported nor written again.
func TestDivergenceIsReportedOncePerPath(t *testing.T) {
	e := driftedEnv(t)
	reg := prometheus.NewRegistry()
	logs := &logLines{}
	lctx := logs.ctx(ctx)
	for round := range 3 {
		key := newWidget(t, e.Client)
		p, err := patcher.Fetch(lctx, e.Client, key, &v1.Widget{}, patcher.WithMetrics(reg))
		if err != nil {
			t.Fatal(err)
		}
		p.Object().Status.Plan = &v1.WidgetPlan{ID: "lost"} // pruned: the schema lacks it
		p.Object().Status.Items = []string{"kept"}
		if err := p.Flush(lctx); err != nil {
			t.Fatalf("round %d: Flush = %v; without WithDivergenceError a divergence is no error", round, err)
		}
		if p.Object().Status.Plan != nil || p.Object().Status.Phase != "Pending" {
			t.Fatalf("round %d: in-memory status %+v is not what the server stored", round, p.Object().Status)
		}
	}
	for _, path := range []string{`"path"="status.plan"`, `"path"="status.phase"`} {
		if n := logs.matching(path); n != 1 {
			t.Errorf("%s logged %d times over 3 writes, want once", path, n)
		}
	}
	if n := logs.matching(`"cause"="pruned"`); n != 1 {
		t.Errorf("pruned logged %d times", n)
	}
	if got := flushCount(t, reg, "diverged"); got != 3 {
		t.Errorf(`statuspatch_flush_total{result="diverged"} = %v, want 3`, got)
	}

	key := newWidget(t, e.Client)
	p, err := patcher.Fetch(ctx, e.Client, key, &v1.Widget{}, patcher.WithDivergenceError(), patcher.WithMetrics(nil))
	if err != nil {
		t.Fatal(err)
	}
	p.Object().Status.Plan = &v1.WidgetPlan{ID: "lost"}
	err = p.Flush(ctx)
	var de *patcher.StatusDivergedError
	if !errors.Is(err, patcher.ErrStatusDiverged) || !errors.As(err, &de) || !strings.Contains(err.Error(), "status.plan (pruned)") || !strings.Contains(err.Error(), "status.phase (defaulted)") {
		t.Fatalf("Flush with WithDivergenceError = %v, want ErrStatusDiverged naming status.plan and status.phase", err)
	}
}

func TestServerNormalisationIsNotDivergence(t *testing.T) {
	e := env(t)
	c, rec := countingClient(t, e)
	key := newWidget(t, e.Client)
	p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, patcher.WithDivergenceError(), patcher.WithMetrics(nil))
	if err != nil {
		t.Fatal(err)
	}
	at := metav1.NewTime(time.Date(2026, 11, 22, 10, 0, 0, 123456789, time.UTC)) // nanoseconds: stored as seconds
	p.Object().Status.Conditions = []metav1.Condition{{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Done", LastTransitionTime: at, ObservedGeneration: p.Object().Generation}}
	if err := p.Flush(ctx); err != nil {
		t.Fatalf("Flush = %v: a time cut to seconds is not a divergence", err)
	}
	sent := len(rec.requests())
	patcher.SetCondition(p.Object(), &p.Object().Status.Conditions, metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Done"})
	if err := p.Flush(ctx); err != nil || len(rec.requests()) != sent {
		t.Fatalf("the next reconcile's same condition = %v after %d requests; want no write", err, len(rec.requests())-sent)
	}
}

// flushCount returns statuspatch_flush_total{result} on reg, summed over kinds.
func flushCount(t *testing.T, reg *prometheus.Registry, result string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	total := 0.0
	for _, mf := range mfs {
		if mf.GetName() != "statuspatch_flush_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "result" && l.GetValue() == result {
					total += m.GetCounter().GetValue()
				}
			}
		}
	}
	return total
}

// A Retry whose write was stored but diverged (WithDivergenceError) ends
// with the object and the base both at what the server stored: the write
// landed, so nothing of it is rolled back in memory, and a later Flush on
// the same patcher sends nothing that would undo it.
//
// Before: Retry put the object back as it was before mutate (as for a
// failed attempt) while the base had moved to the stored version, so the
// next Flush sent the stored items' removal.
func TestRetryStoredButDivergedKeepsTheStoredState(t *testing.T) {
	e := driftedEnv(t)
	c, rec := countingClient(t, e)
	key := newWidget(t, e.Client)
	p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, patcher.WithDivergenceError(), patcher.WithMetrics(nil))
	if err != nil {
		t.Fatal(err)
	}
	err = p.Retry(ctx, func(w *v1.Widget) error {
		w.Status.Plan = &v1.WidgetPlan{ID: "lost"} // pruned: the schema lacks it
		w.Status.Items = []string{"kept"}
		return nil
	})
	if !errors.Is(err, patcher.ErrStatusDiverged) {
		t.Fatalf("Retry = %v, want ErrStatusDiverged", err)
	}
	if got := p.Object().Status.Items; len(got) != 1 || got[0] != "kept" {
		t.Fatalf("after Retry the object's items are %v; want the stored [kept]", got)
	}
	if p.HasChanges() {
		t.Fatal("after a stored Retry the patcher has changes pending: a Flush would undo the stored write")
	}
	sent := len(rec.requests())
	if err := p.Flush(ctx); err != nil || len(rec.requests()) != sent {
		t.Fatalf("Flush after the stored Retry = %v after %d requests; want nil and no request", err, len(rec.requests())-sent)
	}
	if got := get(t, e.Client, key).Status.Items; len(got) != 1 || got[0] != "kept" {
		t.Fatalf("server holds items %v, want [kept]", got)
	}
}
