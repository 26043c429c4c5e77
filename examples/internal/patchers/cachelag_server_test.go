package patchers_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"

	demov1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
)

// A reconciler that writes its object itself (r.Update adding a label) and
// then Flushes its status, through a manager's cached client and no API
// reader: the re-base's re-read comes from the informer, which lags the
// Update. The patcher waits for the cache to reach the Update's
// resourceVersion: stored, no Conflict.
func TestOwnUpdateThenFlushThroughCache(t *testing.T) {
	env, key := rolloutEnv(t)
	c := cachedClient(t, env)
	var ro demov1.Rollout
	if err := c.Get(ctx, key, &ro); err != nil { // starts the informer and waits for its sync
		t.Fatal(err)
	}
	p := patcher.New(c, &ro)
	ro.Labels = map[string]string{"owned": "yes"}
	if err := c.Update(ctx, &ro); err != nil {
		t.Fatal(err)
	}
	ro.Status.Phase = demov1.RolloutProgressing
	if err := p.Flush(ctx); err != nil {
		t.Fatalf("Flush after the caller's own Update through a cached client: %v", err)
	}
	var got demov1.Rollout
	if err := env.Client.Get(ctx, key, &got); err != nil {
		t.Fatal(err)
	}
	if got.Labels["owned"] != "yes" || got.Status.Phase != demov1.RolloutProgressing {
		t.Fatalf("stored labels %v and status %+v: want the Update's label and the Flush's phase", got.Labels, got.Status)
	}
}

// A cache held at the version before the caller's Update for its first
// `held` reads, then served from the server: the re-base reads again and
// stores after the wait; held past the wait's bound, it is today's Conflict
// naming a lagging cache.
func TestOwnUpdateThenFlushThroughHeldCache(t *testing.T) {
	for _, tc := range []struct {
		name   string
		held   int // -1: for ever
		stored bool
	}{
		{name: "caught up after three reads", held: 3, stored: true},
		{name: "held past the bound", held: -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, key := rolloutEnv(t)
			ro, cache := ownUpdate(t, env, key, tc.held)
			p := patcher.New(cache, ro)
			ro.Labels = map[string]string{"owned": "yes"}
			if err := cache.Update(ctx, ro); err != nil {
				t.Fatal(err)
			}
			ro.Status.Phase = demov1.RolloutProgressing
			err := p.Flush(ctx)
			reads := cache.count()
			if tc.stored {
				if err != nil {
					t.Fatalf("Flush through a cache held for %d reads: %v", tc.held, err)
				}
				if reads != tc.held+1 {
					t.Errorf("%d re-reads, want %d (held %d, then the caught-up one)", reads, tc.held+1, tc.held)
				}
				assertPhase(t, env, key, demov1.RolloutProgressing)
				return
			}
			if !apierrors.IsConflict(err) || !strings.Contains(err.Error(), "a lagging cache (pass WithAPIReader(mgr.GetAPIReader()))") {
				t.Fatalf("Flush through a cache held for ever: %v, want today's lagging-cache Conflict", err)
			}
			if reads < 2 {
				t.Errorf("%d re-reads through a held cache, want the wait's reads again", reads)
			}
			assertPhase(t, env, key, "")
		})
	}
}

// With an API reader the re-read is the server's: a read older than the
// object is a Conflict at once, with no wait and no second read.
func TestOwnUpdateThenFlushAPIReaderNoWait(t *testing.T) {
	env, key := rolloutEnv(t)
	ro, reader := ownUpdate(t, env, key, -1)
	p := patcher.New(env.Client, ro, patcher.WithAPIReader(reader))
	ro.Labels = map[string]string{"owned": "yes"}
	if err := env.Client.Update(ctx, ro); err != nil {
		t.Fatal(err)
	}
	ro.Status.Phase = demov1.RolloutProgressing
	if err := p.Flush(ctx); !apierrors.IsConflict(err) {
		t.Fatalf("Flush with an API reader behind the object: %v, want a Conflict", err)
	}
	if n := reader.count(); n != 1 {
		t.Fatalf("%d reads through the API reader, want 1: no wait with an API reader", n)
	}
}

// Another writer between the caller's Update and its Flush: a Conflict,
// whatever the cache has seen of either write, and nothing stored.
func TestOwnUpdateOtherWriterThenFlushThroughCache(t *testing.T) {
	env, key := rolloutEnv(t)
	c := cachedClient(t, env)
	var ro demov1.Rollout
	if err := c.Get(ctx, key, &ro); err != nil {
		t.Fatal(err)
	}
	p := patcher.New(c, &ro)
	ro.Labels = map[string]string{"owned": "yes"}
	if err := c.Update(ctx, &ro); err != nil {
		t.Fatal(err)
	}
	var other demov1.Rollout
	if err := env.Client.Get(ctx, key, &other); err != nil {
		t.Fatal(err)
	}
	other.Labels["other"] = "yes"
	if err := env.Client.Update(ctx, &other); err != nil {
		t.Fatal(err)
	}
	ro.Status.Phase = demov1.RolloutProgressing
	if err := p.Flush(ctx); !apierrors.IsConflict(err) {
		t.Fatalf("Flush after another writer's write: %v, want a Conflict", err)
	}
	assertPhase(t, env, key, "")
}

// cachedClient is a started manager's client: reads from its informer
// cache, no API reader.
func cachedClient(t *testing.T, env *testenv.Env) client.Client {
	t.Helper()
	mgr, err := env.NewManager(manager.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- mgr.Start(mctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("manager: %v", err)
		}
	})
	if !mgr.GetCache().WaitForCacheSync(mctx) {
		t.Fatal("the manager's cache did not sync")
	}
	return mgr.GetClient()
}

// ownUpdate reads the rollout and returns it with a heldReader over the
// server that serves that read for the next held Gets (-1: all of them).
func ownUpdate(t *testing.T, env *testenv.Env, key client.ObjectKey, held int) (*demov1.Rollout, *heldReader) {
	t.Helper()
	ro := &demov1.Rollout{}
	if err := env.Client.Get(ctx, key, ro); err != nil {
		t.Fatal(err)
	}
	return ro, &heldReader{Client: env.Client, snap: ro.DeepCopy(), held: held}
}

// heldReader is a cache that has not seen the writes since snap for its
// first held Gets, and has after.
type heldReader struct {
	client.Client
	snap *demov1.Rollout
	mu   sync.Mutex
	held int
	gets int
}

func (h *heldReader) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	h.mu.Lock()
	h.gets++
	old := h.held < 0 || h.gets <= h.held
	h.mu.Unlock()
	if old {
		h.snap.DeepCopyInto(obj.(*demov1.Rollout))
		return nil
	}
	return h.Client.Get(ctx, key, obj, opts...)
}

func (h *heldReader) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.gets
}

func assertPhase(t *testing.T, env *testenv.Env, key client.ObjectKey, want demov1.RolloutPhase) {
	t.Helper()
	var got demov1.Rollout
	if err := env.Client.Get(ctx, key, &got); err != nil {
		t.Fatal(err)
	}
	if got.Status.Phase != want {
		t.Fatalf("stored phase %q, want %q", got.Status.Phase, want)
	}
}
