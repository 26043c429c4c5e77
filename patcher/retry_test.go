package patcher_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/patchertest"
)

var fastBackoff = patcher.WithBackoff(wait.Backoff{Duration: time.Millisecond, Factor: 1, Steps: 5})

func TestRetryReRunsMutateOnFreshState(t *testing.T) {
	c, other, _ := newClient(t)
	p := patcher.New(c, fetch(t, c), fastBackoff)
	concurrentStatusWrite(t, other, func(d *appsv1.Deployment) { d.Status.Replicas = 5 })

	var seen []int32
	err := p.Retry(ctx, func(d *appsv1.Deployment) error {
		seen = append(seen, d.Status.Replicas)
		d.Status.Replicas++ // decided from the state it is given
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 || seen[0] != 1 || seen[1] != 5 {
		t.Fatalf("mutate saw replicas %v, want [1 5]: the second run must see the concurrent write", seen)
	}
	if got := fetch(t, other).Status.Replicas; got != 6 {
		t.Fatalf("server replicas = %d, want 6 (both increments kept)", got)
	}
}

func TestRetryExhausted(t *testing.T) {
	c, _, _ := newClient(t)
	fc := patchertest.NewClient(c, patchertest.Faults{Conflicts: 100})
	p := patcher.New(fc, fetch(t, c), fastBackoff)
	err := p.Retry(ctx, func(d *appsv1.Deployment) error { d.Status.ReadyReplicas = 1; return nil })
	if !errors.Is(err, patcher.ErrRetryExhausted) || !apierrors.IsConflict(err) {
		t.Fatalf("Retry = %v, want ErrRetryExhausted and a Conflict", err)
	}
	if !strings.Contains(err.Error(), "5 attempts") || !strings.Contains(err.Error(), "default/web") {
		t.Fatalf("error %q does not name the attempt count and the object", err)
	}
	if n := fc.StatusWrites(); n != 5 {
		t.Fatalf("%d writes, want 5 (Steps)", n)
	}
}

func TestRetrySurvivesInjectedConflicts(t *testing.T) {
	c, _, _ := newClient(t)
	fc := patchertest.NewClient(c, patchertest.Faults{Conflicts: 3})
	p := patcher.New(fc, fetch(t, c), fastBackoff)
	runs := 0
	if err := p.Retry(ctx, func(d *appsv1.Deployment) error { runs++; d.Status.ReadyReplicas = 4; return nil }); err != nil {
		t.Fatal(err)
	}
	if runs != 4 || fetch(t, c).Status.ReadyReplicas != 4 {
		t.Fatalf("runs = %d, server readyReplicas = %d; want 4 runs and 4", runs, fetch(t, c).Status.ReadyReplicas)
	}
}

func TestRetryReturnsMutateErrorWithoutWriting(t *testing.T) {
	c, _, log := newClient(t)
	p := patcher.New(c, fetch(t, c))
	boom := errors.New("boom")
	err := p.Retry(ctx, func(d *appsv1.Deployment) error { d.Status.ReadyReplicas = 7; return boom })
	if err != boom { //nolint:errorlint // identity on purpose: mutate's error must come back unwrapped
		t.Fatalf("Retry = %v, want mutate's error unchanged", err)
	}
	if len(log.reqs) != 0 {
		t.Fatalf("%d requests sent after mutate failed", len(log.reqs))
	}
}

func TestRetryStopsWhenContextIsDone(t *testing.T) {
	c, _, _ := newClient(t)
	fc := patchertest.NewClient(c, patchertest.Faults{Conflicts: 100})
	p := patcher.New(fc, fetch(t, c), patcher.WithBackoff(wait.Backoff{Duration: time.Hour, Steps: 5}))
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	err := p.Retry(cctx, func(d *appsv1.Deployment) error { d.Status.ReadyReplicas = 1; return nil })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Retry = %v, want context.Canceled", err)
	}
}

func TestRetryReadsThroughAPIReaderNotStaleCache(t *testing.T) {
	c, other, _ := newClient(t)
	cache := patchertest.NewClient(c, patchertest.Faults{StaleReads: 100})
	p := patcher.New(cache, fetch(t, cache), fastBackoff, patcher.WithAPIReader(other))
	concurrentStatusWrite(t, other, func(d *appsv1.Deployment) { d.Status.Replicas = 5 })
	if err := p.Retry(ctx, func(d *appsv1.Deployment) error { d.Status.Replicas++; return nil }); err != nil {
		t.Fatal(err)
	}
	if cache.StaleReadsServed() != 0 || fetch(t, other).Status.Replicas != 6 {
		t.Fatalf("stale reads %d, replicas %d: Retry must read through the API reader", cache.StaleReadsServed(), fetch(t, other).Status.Replicas)
	}

	// Without an API reader, the fake client's 409 (whose sends the patcher
	// cannot count, so it is settled) is settled by a read of the status
	// subresource, which no cache serves (patchertest serves it past its
	// stale reads): Retry decides again on the server's state, and the
	// other writer's 50 is kept, never overwritten from the stale cache.
	p = patcher.New(cache, fetch(t, other), fastBackoff)
	concurrentStatusWrite(t, other, func(d *appsv1.Deployment) { d.Status.Replicas = 50 })
	err := p.Retry(ctx, func(d *appsv1.Deployment) error { d.Status.Replicas++; return nil })
	if err != nil {
		t.Fatalf("Retry over a stale cache = %v, want nil: the settle read is the status subresource's", err)
	}
	if got := fetch(t, other).Status.Replicas; got != 51 {
		t.Fatalf("server replicas = %d, want 51: the other writer's 50, then ours", got)
	}
}
