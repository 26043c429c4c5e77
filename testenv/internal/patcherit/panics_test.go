package patcherit_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// Issue 23, item 4: no value a user passes in is used as a map key, or
// compared, in a way that can panic.

// valueClient is a client wrapper passed by value, as users write them.
type valueClient struct{ client.Client }

// valueRegisterer is a Registerer passed by value that holds a map.
type valueRegisterer struct {
	prometheus.Registerer
	labels map[string]string
}

// detailedCause is a cancellation cause of a comparable type holding a
// value that is not.
type detailedCause struct{ detail any }

func (detailedCause) Error() string { return "shutting down" }

// noPanic runs f and fails the test, instead of crashing the binary, when
// it panics.
func noPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("%s panicked: %v", what, r)
		}
	}()
	f()
}

// Item 4: no value a user passes in is used as a map key or compared in a
// way that can panic.
func TestUserValuesNeverPanic(t *testing.T) {
	e := env(t)
	wc, err := client.NewWithWatch(e.Config, client.Options{Scheme: e.Scheme, Mapper: e.Mapper})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("client wrapper by value", func(t *testing.T) {
		key := newWidget(t, e.Client)
		c := valueClient{interceptor.NewClient(wc, interceptor.Funcs{})}
		noPanic(t, "Fetch, Flush and AddFinalizer through a client wrapper passed by value", func() {
			p, err := patcher.Fetch(ctx, c, key, &v1.Widget{})
			if err != nil {
				t.Fatal(err)
			}
			p.Object().Status.Phase = "Running"
			if err := p.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := p.AddFinalizer(ctx, "test.statuspatch.dev/f"); err != nil {
				t.Fatal(err)
			}
		})
		if got := get(t, e.Client, key); got.Status.Phase != "Running" || len(got.Finalizers) != 1 {
			t.Fatalf("stored phase %q, finalizers %v", got.Status.Phase, got.Finalizers)
		}
	})

	t.Run("registerer by value", func(t *testing.T) {
		key := newWidget(t, e.Client)
		reg := prometheus.NewRegistry()
		r := valueRegisterer{Registerer: reg, labels: map[string]string{"team": "a"}}
		noPanic(t, "New with WithMetrics given a Registerer by value holding a map", func() {
			for i, phase := range []string{"One", "Two"} {
				p := patcher.New(e.Client, get(t, e.Client, key), patcher.WithMetrics(r))
				p.Object().Status.Phase = phase
				if err := p.Flush(ctx); err != nil {
					t.Fatalf("write %d: %v", i, err)
				}
			}
		})
		if n := appliedFlushes(t, reg); n != 2 {
			t.Fatalf("statuspatch_flush_total{result=applied} = %v on the given registry, want 2", n)
		}
	})

	t.Run("cancellation cause", func(t *testing.T) {
		key := newWidget(t, e.Client)
		cctx, cancel := context.WithCancelCause(ctx)
		cancel(detailedCause{detail: map[string]int{"pending": 1}})
		c := interceptor.NewClient(wc, interceptor.Funcs{
			Get: func(ctx context.Context, _ client.WithWatch, _ client.ObjectKey, _ client.Object, _ ...client.GetOption) error {
				return fmt.Errorf("get: %w", context.Cause(ctx)) // a client that reports the cause itself
			},
		})
		noPanic(t, "Fetch on a context cancelled with a cause holding a map", func() {
			_, err := patcher.Fetch(cctx, c, key, &v1.Widget{})
			var cause detailedCause
			if !errors.As(err, &cause) || !errors.Is(err, context.Canceled) {
				t.Fatalf("Fetch = %v, want the cause and context.Canceled", err)
			}
		})
	})
}

func appliedFlushes(t *testing.T, reg *prometheus.Registry) float64 {
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
			for _, l := range m.GetLabel() {
				if l.GetName() == "result" && l.GetValue() == "applied" {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	return 0
}
