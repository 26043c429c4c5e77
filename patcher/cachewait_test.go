package patcher_test

import (
	"context"
	"errors"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/patchertest"
)

// cancelOnGet cancels its context at its gets-th Get: a caller that gives
// up while the re-base waits for a cache.
type cancelOnGet struct {
	client.Client
	cancel context.CancelFunc
	gets   int
	at     int
}

func (c *cancelOnGet) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	if c.gets++; c.gets == c.at {
		c.cancel()
	}
	return c.Client.Get(ctx, key, obj, opts...)
}

// The wait for a cache behind the caller's own write ends with the
// context: its error, not a Conflict, and nothing sent.
func TestCacheWaitHonoursContext(t *testing.T) {
	c, _, log := newClient(t)
	stale := patchertest.NewClient(c, patchertest.Faults{StaleReads: 1 << 20})
	first := fetch(t, stale) // the snapshot the lagging reads will serve
	fctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cache := &cancelOnGet{Client: stale, cancel: cancel, at: 2} // the re-base's first read, then one of the wait's
	p := patcher.New(cache, first)
	p.Object().Labels = map[string]string{"mine": "1"}
	if err := c.Update(ctx, p.Object()); err != nil {
		t.Fatal(err)
	}
	before := len(log.reqs)
	p.Object().Status.ReadyReplicas = 2
	err := p.Flush(fctx)
	if !errors.Is(err, context.Canceled) || apierrors.IsConflict(err) {
		t.Fatalf("Flush cancelled during the cache wait = %v, want the context's error", err)
	}
	if cache.gets != 2 {
		t.Errorf("%d reads, want 2: the wait stops at the cancel", cache.gets)
	}
	if n := len(log.reqs) - before; n != 0 {
		t.Errorf("%d requests sent after a cancelled wait, want 0", n)
	}
}
