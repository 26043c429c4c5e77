package patcher_test

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/statuspatch/statuspatch/patcher"
	appsv1 "k8s.io/api/apps/v1"
)

func TestFlushMetrics(t *testing.T) {
	reg := prometheus.NewRegistry()
	c, other, _ := newClient(t)
	p := patcher.New(c, fetch(t, c), patcher.WithMetrics(reg))
	_ = p.Flush(ctx) // noop
	p.Object().Status.ReadyReplicas = 2
	_ = p.Flush(ctx) // applied
	concurrentStatusWrite(t, other, func(d *appsv1.Deployment) { d.Status.Replicas = 5 })
	p.Object().Status.ReadyReplicas = 3
	_ = p.Flush(ctx)                    // conflict
	p.Object().Status.ReadyReplicas = 2 // undo, as Retry refuses pending changes
	if err := p.Retry(ctx, func(d *appsv1.Deployment) error { d.Status.ReadyReplicas = 3; return nil }); err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"noop": 1, "applied": 2, "conflict": 2}
	for result, n := range want {
		if got := testutil.ToFloat64(mustCounter(t, reg, result)); got != n {
			t.Errorf("statuspatch_flush_total{result=%q} = %v, want %v", result, got, n)
		}
	}
	if n := testutil.CollectAndCount(reg, "statuspatch_retry_attempts"); n != 1 {
		t.Errorf("statuspatch_retry_attempts series = %d, want 1", n)
	}
	if n := testutil.CollectAndCount(reg, "statuspatch_flush_duration_seconds"); n != 1 {
		t.Errorf("statuspatch_flush_duration_seconds series = %d, want 1", n)
	}
}

func mustCounter(t *testing.T, reg *prometheus.Registry, result string) prometheus.Collector {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != "statuspatch_flush_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			if labels["result"] == result {
				if labels["kind"] != "Deployment" {
					t.Fatalf("kind label = %q", labels["kind"])
				}
				return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "x"}, func() float64 { return m.GetCounter().GetValue() })
			}
		}
	}
	return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "x"}, func() float64 { return 0 })
}
