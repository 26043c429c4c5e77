package patcherit_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// Sixteen writers read one Widget from a real manager cache; every read
// takes its snapshot, then returns only after writer 0's write completed,
// and then all write. The fifteen others read before that write and saw
// the object without it: they raced with it, an ordinary conflict, and
// none may be told ErrStaleCache. A check that compares resourceVersions
// alone (the read object older than the last write) or that takes the
// patcher's construction for the read's start calls every one of them
// stale.
func TestRacedReadsAreNotStale(t *testing.T) {
	const writers, rounds = 16, 4
	mgr, _, seen := laggingManager(t, nil)
	e := env(t)
	key := newWidget(t, e.Client)
	seen.waitFor(t, key, get(t, e.Client, key).ResourceVersion)

	var snapshotted *barrier
	var firstWrote chan struct{}
	cached := &heldReads{Client: mgr.GetClient(), hold: writers - 1, after: func() {
		snapshotted.wait()
		<-firstWrote
	}}

	var stale, conflicts, naive atomic.Int64
	for round := range rounds {
		snapshotted = newBarrier(writers)
		firstWrote = make(chan struct{})
		cached.held.Store(0)
		var newest atomic.Value // the resourceVersion of the round's first write
		var wg sync.WaitGroup
		for w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var c client.Client = cached
				if w == 0 {
					c = mgr.GetClient()
				}
				p, err := patcher.Fetch(ctx, c, key, &v1.Widget{})
				if err != nil {
					t.Error(err)
					return
				}
				if w == 0 {
					snapshotted.wait() // every other read has its snapshot
				}
				read := p.Object().ResourceVersion
				p.Object().Status.Items = append(p.Object().Status.Items, fmt.Sprintf("r%d-w%d", round, w))
				err = p.Flush(ctx)
				if w == 0 {
					newest.Store(p.Object().ResourceVersion)
					close(firstWrote)
				}
				switch {
				case errors.Is(err, patcher.ErrStaleCache):
					stale.Add(1)
				case apierrors.IsConflict(err):
					conflicts.Add(1)
					if cmp, _ := compareRV(read, newest.Load().(string)); cmp < 0 {
						naive.Add(1) // older than a write that completed before this patcher was made
					}
				case err != nil:
					t.Errorf("writer %d: %v", w, err)
				}
			}()
		}
		wg.Wait()
		seen.waitFor(t, key, get(t, e.Client, key).ResourceVersion)
	}
	t.Logf("%d conflicts; a resourceVersion comparison would have called %d of them stale reads", conflicts.Load(), naive.Load())
	if stale.Load() != 0 {
		t.Errorf("%d raced reads were called stale (ErrStaleCache); want 0", stale.Load())
	}
	if naive.Load() < int64(rounds*(writers-1)) {
		t.Errorf("only %d reads raced with a completed write, want %d: the scenario does not force the race", naive.Load(), rounds*(writers-1))
	}
}

// heldReads is a client whose first hold Gets (of a round: reset held)
// take their snapshot (from the cache), then run after before they
// return: a read that began before, and ends after, whatever after waits
// for. Later Gets (a Flush reading back a write that got a Conflict) pass.
type heldReads struct {
	client.Client
	hold  int64
	held  atomic.Int64
	after func()
}

func (h *heldReads) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	err := h.Client.Get(ctx, key, obj, opts...)
	if h.held.Add(1) <= h.hold {
		h.after()
	}
	return err
}

// The cache is made to lag: after this process's own status write, watch
// events are held back, and the next reconcile's cached read returns the
// object from before that write. Without an API reader the patcher refuses
// to act (ErrStaleCache, nothing sent); from patcher.ForManager it reads
// the object fresh and writes without a conflict.
func TestStaleCacheAfterOwnWrite(t *testing.T) {
	mgr, gate, seen := laggingManager(t, nil)
	e := env(t)
	key := newWidget(t, e.Client)
	seen.waitFor(t, key, get(t, e.Client, key).ResourceVersion)

	gate.hold()
	p, err := patcher.Fetch(ctx, mgr.GetClient(), key, &v1.Widget{})
	if err != nil {
		t.Fatal(err)
	}
	p.Object().Status.Phase = "Planned"
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	written := p.Object().ResourceVersion

	p, err = patcher.Fetch(ctx, mgr.GetClient(), key, &v1.Widget{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Object().ResourceVersion == written {
		t.Fatal("the cache saw the write: the gate does not hold watch events back")
	}
	var sce *patcher.StaleCacheError
	if err := p.Fresh(ctx); !errors.As(err, &sce) || sce.RequeueAfter <= 0 || sce.Written != written {
		t.Fatalf("Fresh: got %v, want a StaleCacheError naming resourceVersion %s with a RequeueAfter", err, written)
	}
	p.Object().Status.Phase = "Stale decision"
	if err := p.Flush(ctx); !errors.Is(err, patcher.ErrStaleCache) {
		t.Fatalf("Flush: got %v, want ErrStaleCache", err)
	}
	if got := get(t, e.Client, key); got.ResourceVersion != written {
		t.Fatalf("a stale patcher wrote: resourceVersion %s, want %s", got.ResourceVersion, written)
	}

	fp, err := patcher.Fetch(ctx, patcher.ForManager(mgr), key, &v1.Widget{})
	if err != nil {
		t.Fatal(err)
	}
	if err := fp.Fresh(ctx); err != nil || fp.Object().ResourceVersion != written || fp.Object().Status.Phase != "Planned" {
		t.Fatalf("ForManager: Fresh %v, read resourceVersion %s phase %q; want the own write %s", err, fp.Object().ResourceVersion, fp.Object().Status.Phase, written)
	}
	fp.Object().Status.Phase = "Done"
	if err := fp.Flush(ctx); err != nil {
		t.Fatalf("Flush from the fresh read: %v", err)
	}

	gate.release()
	seen.waitFor(t, key, fp.Object().ResourceVersion)
	p, err = patcher.Fetch(ctx, mgr.GetClient(), key, &v1.Widget{})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Fresh(ctx); err != nil {
		t.Fatalf("after the cache caught up: Fresh %v, want nil", err)
	}
}
