package patcherit_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// Issue 72: code migrated to a patcher keeps kubebuilder's re-Get after
// the status write ("re-fetch before updating the status") through
// ForManager's client, the manager's cache. Here the cache lags
// deterministically: snapshotCache serves a frozen copy of the object.

// snapshotCache is a manager's cached client whose Gets of a frozen key
// return the object as it was when frozen, as a cache whose watch events
// stopped arriving; writes, and reads of other keys, reach the server.
// inRead, when set, runs inside a frozen Get after its snapshot is taken.
type snapshotCache struct {
	client.Client
	gets   atomic.Int32
	mu     sync.Mutex
	snaps  map[client.ObjectKey]*v1.Widget
	inRead func()
}

func (s *snapshotCache) freeze(t *testing.T, key client.ObjectKey) *v1.Widget {
	t.Helper()
	w := get(t, s.Client, key)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.snaps == nil {
		s.snaps = map[client.ObjectKey]*v1.Widget{}
	}
	s.snaps[key] = w
	return w.DeepCopy()
}

func (s *snapshotCache) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	s.gets.Add(1)
	s.mu.Lock()
	snap, frozen := s.snaps[key]
	hook := s.inRead
	s.mu.Unlock()
	w, ok := obj.(*v1.Widget)
	if !frozen || !ok {
		return s.Client.Get(ctx, key, obj, opts...)
	}
	snap.DeepCopyInto(w)
	if hook != nil {
		hook()
	}
	return nil
}

// snapshotManager is a manager as patcher.ForManager sees one: the lagging
// cache for GetClient, and a real, uncached client as the API reader.
type snapshotManager struct {
	cache *snapshotCache
	api   client.Reader
}

func (m snapshotManager) GetClient() client.Client    { return m.cache }
func (m snapshotManager) GetAPIReader() client.Reader { return m.api }

// newSnapshotManager returns a manager over the shared server, and the
// recorder of its API reader's requests.
func newSnapshotManager(t *testing.T) (snapshotManager, *recorder) {
	e := env(t)
	api, rec := countingClient(t, e)
	return snapshotManager{cache: &snapshotCache{Client: e.Client}, api: api}, rec
}

// After a status write through a patcher from ForManager's client, a Get
// through that client returns the write (the cache still serves the
// object from before it), and a second patcher made from that Get's object
// writes without a 409. Through the manager's cache itself the same re-Get
// returns the old object, and a patcher from it gets a Conflict.
func TestForManagerGetReadsOwnWrite(t *testing.T) {
	mgr, _ := newSnapshotManager(t)
	e := env(t)
	key := newWidget(t, e.Client)
	old := mgr.cache.freeze(t, key)
	pc := patcher.ForManager(mgr, patcher.WithMetrics(nil))

	p, err := patcher.Fetch(ctx, pc, key, &v1.Widget{})
	if err != nil {
		t.Fatal(err)
	}
	p.Object().Status.Phase = "Planned"
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	written := p.Object().ResourceVersion

	w := &v1.Widget{}
	if err := pc.Get(ctx, key, w); err != nil {
		t.Fatal(err)
	}
	if cmp, err := compareRV(w.ResourceVersion, written); err != nil || cmp < 0 || w.Status.Phase != "Planned" {
		t.Fatalf("re-Get through ForManager's client: resourceVersion %s phase %q, want the own write %s \"Planned\" or later (%v)", w.ResourceVersion, w.Status.Phase, written, err)
	}
	p2 := patcher.New(pc, w)
	p2.Object().Status.Phase = "Done"
	if err := p2.Flush(ctx); err != nil {
		t.Fatalf("Flush from the re-Get: %v, want no 409", err)
	}
	if got := get(t, e.Client, key); got.Status.Phase != "Done" {
		t.Fatalf("server has phase %q, want Done", got.Status.Phase)
	}

	// The scenario holds: the manager's cache still lags, and a write from
	// its read conflicts.
	stale := &v1.Widget{}
	if err := mgr.GetClient().Get(ctx, key, stale); err != nil {
		t.Fatal(err)
	}
	if stale.ResourceVersion != old.ResourceVersion {
		t.Fatalf("the cache returned resourceVersion %s, want the frozen %s", stale.ResourceVersion, old.ResourceVersion)
	}
	p3 := patcher.New(mgr.GetClient(), stale)
	p3.Object().Status.Phase = "Stale decision"
	if err := p3.Flush(ctx); !apierrors.IsConflict(err) {
		t.Fatalf("Flush from the cache's read: got %v, want a Conflict", err)
	}
}

// An object this process never wrote: Get makes one read of the cached
// client and no request through the API reader, even with another object
// written here.
func TestForManagerGetNeverWrittenReadsCacheOnce(t *testing.T) {
	mgr, rec := newSnapshotManager(t)
	e := env(t)
	written, other := newWidget(t, e.Client), newWidget(t, e.Client)
	mgr.cache.freeze(t, written)
	mgr.cache.freeze(t, other)
	pc := patcher.ForManager(mgr, patcher.WithMetrics(nil))
	p, err := patcher.Fetch(ctx, pc, written, &v1.Widget{})
	if err != nil {
		t.Fatal(err)
	}
	p.Object().Status.Phase = "Planned"
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}

	before, requests := mgr.cache.gets.Load(), len(rec.requests())
	if err := pc.Get(ctx, other, &v1.Widget{}); err != nil {
		t.Fatal(err)
	}
	if gets, sent := mgr.cache.gets.Load()-before, len(rec.requests())-requests; gets != 1 || sent != 0 {
		t.Fatalf("Get of an object never written here: %d cached reads and %d API reader requests, want 1 and 0", gets, sent)
	}
}

// A Get whose cached read began before this process's write completed
// (its snapshot taken, then held until the write is done) raced with the
// write: it is left as it is, with no request through the API reader. The
// next Get, begun after the write, reads it.
func TestForManagerGetRacedReadIsKept(t *testing.T) {
	mgr, rec := newSnapshotManager(t)
	e := env(t)
	key := newWidget(t, e.Client)
	old := mgr.cache.freeze(t, key)
	pc := patcher.ForManager(mgr, patcher.WithMetrics(nil))
	p, err := patcher.Fetch(ctx, pc, key, &v1.Widget{})
	if err != nil {
		t.Fatal(err)
	}

	started, wrote := make(chan struct{}), make(chan struct{})
	mgr.cache.mu.Lock()
	mgr.cache.inRead = func() {
		mgr.cache.mu.Lock()
		mgr.cache.inRead = nil // only this read waits
		mgr.cache.mu.Unlock()
		close(started)
		<-wrote
	}
	mgr.cache.mu.Unlock()
	requests := len(rec.requests())
	raced := &v1.Widget{}
	done := make(chan error, 1)
	go func() { done <- pc.Get(ctx, key, raced) }()
	<-started
	p.Object().Status.Phase = "Planned"
	err = p.Flush(ctx)
	close(wrote)
	if gerr := <-done; err != nil || gerr != nil {
		t.Fatalf("Flush: %v; raced Get: %v", err, gerr)
	}
	if raced.ResourceVersion != old.ResourceVersion || len(rec.requests()) != requests {
		t.Fatalf("raced Get: resourceVersion %s after %d API reader requests, want the cached %s after 0",
			raced.ResourceVersion, len(rec.requests())-requests, old.ResourceVersion)
	}

	after := &v1.Widget{}
	if err := pc.Get(ctx, key, after); err != nil {
		t.Fatal(err)
	}
	if after.ResourceVersion != p.Object().ResourceVersion {
		t.Fatalf("Get after the write: resourceVersion %s, want the write's %s", after.ResourceVersion, p.Object().ResourceVersion)
	}
}
