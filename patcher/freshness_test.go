package patcher_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher"
)

// frozenCache serves every Get from one snapshot, as a cache whose watch
// events stopped arriving; onGet, if set, runs inside the Get, after the
// read began and before it returns.
type frozenCache struct {
	client.Client
	snap  *appsv1.Deployment
	onGet func()
}

func (f *frozenCache) Get(_ context.Context, _ client.ObjectKey, obj client.Object, _ ...client.GetOption) error {
	if f.onGet != nil {
		f.onGet()
	}
	f.snap.DeepCopyInto(obj.(*appsv1.Deployment))
	return nil
}

// passClient passes every call to the client it holds.
type passClient struct{ client.Client }

// trackedDeployment is deployment() with a UID unique to the test: the
// write log tracks only objects with a UID (a fake client sets none).
func trackedDeployment(t *testing.T) *appsv1.Deployment {
	d := deployment()
	d.UID = types.UID("uid-" + t.Name())
	return d
}

// writeOwn flushes a status change through a fresh patcher on c: this
// process's own write, which the write log records.
func writeOwn(t *testing.T, c client.Client, replicas int32) {
	t.Helper()
	p, err := patcher.Fetch(context.Background(), c, key, &appsv1.Deployment{})
	if err != nil {
		t.Fatal(err)
	}
	p.Object().Status.Replicas = replicas
	if err := p.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
}

var key = client.ObjectKey{Namespace: "default", Name: "web"}

func TestFetchFromCacheBehindOwnWriteIsStale(t *testing.T) {
	ctx := context.Background()
	c, _, log := newClient(t, trackedDeployment(t))
	cache := &frozenCache{Client: c, snap: fetch(t, c)}
	writeOwn(t, cache, 2)
	writes := log.count("patch", "status")

	p, err := patcher.Fetch(ctx, cache, key, &appsv1.Deployment{})
	if err != nil {
		t.Fatal(err)
	}
	var stale *patcher.StaleCacheError
	if err := p.Fresh(ctx); !errors.As(err, &stale) || !errors.Is(err, patcher.ErrStaleCache) {
		t.Fatalf("Fresh: got %v, want a StaleCacheError", err)
	}
	if stale.RequeueAfter <= 0 || stale.Read == stale.Written {
		t.Errorf("StaleCacheError %+v: want a RequeueAfter and two resourceVersions", stale)
	}
	read := p.Object().Status.Replicas
	p.Object().Status.Replicas = 7
	if err := p.Flush(ctx); !errors.Is(err, patcher.ErrStaleCache) {
		t.Errorf("Flush: got %v, want ErrStaleCache", err)
	}
	p.Object().Status.Replicas = read // back to the base: Retry refuses pending changes
	ran := false
	if err := p.Retry(ctx, func(*appsv1.Deployment) error { ran = true; return nil }); !errors.Is(err, patcher.ErrStaleCache) || ran {
		t.Errorf("Retry: got %v (mutate ran: %v), want ErrStaleCache before mutate", err, ran)
	}
	if _, err := p.AddFinalizer(ctx, "example.com/f"); !errors.Is(err, patcher.ErrStaleCache) {
		t.Errorf("AddFinalizer: got %v, want ErrStaleCache", err)
	}
	if got := log.count("patch", "status") + log.count("patch", ""); got != writes {
		t.Errorf("%d writes sent from a stale read, want none", got-writes)
	}
}

func TestFetchFromCacheBehindOwnWriteReadsThroughAPIReader(t *testing.T) {
	ctx := context.Background()
	c, _, log := newClient(t, trackedDeployment(t))
	cache := &frozenCache{Client: c, snap: fetch(t, c)}
	writeOwn(t, cache, 2)

	p, err := patcher.Fetch(ctx, patcher.WithDefaults(cache, patcher.WithAPIReader(c)), key, &appsv1.Deployment{})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Fresh(ctx); err != nil {
		t.Fatalf("Fresh: %v", err)
	}
	if got := p.Object().Status.Replicas; got != 2 {
		t.Fatalf("status.replicas %d, want 2: Fetch must re-read past the stale cache", got)
	}
	p.Object().Status.Replicas = 3
	if err := p.Flush(ctx); err != nil {
		t.Fatalf("Flush after the fresh read: %v", err)
	}
	if got := fetch(t, c).Status.Replicas; got != 3 || log.count("patch", "status") != 2 {
		t.Errorf("replicas %d after %d status writes, want 3 after 2", got, log.count("patch", "status"))
	}
}

// A read that began before this process's write completed and returned
// the older object raced with the write: an ordinary conflict, never
// ErrStaleCache, and no extra read either.
func TestReadRacingOwnWriteIsNotStale(t *testing.T) {
	ctx := context.Background()
	c, _, _ := newClient(t, trackedDeployment(t))
	cache := &frozenCache{Client: c, snap: fetch(t, c)}
	cache.onGet = func() {
		cache.onGet = nil
		writeOwn(t, cache, 2) // completes while the read is in flight
	}
	p, err := patcher.Fetch(ctx, patcher.WithDefaults(cache, patcher.WithAPIReader(c)), key, &appsv1.Deployment{})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Fresh(ctx); err != nil {
		t.Fatalf("Fresh: got %v, want nil: a raced read is not stale", err)
	}
	if got := p.Object().Status.Replicas; got != 1 {
		t.Fatalf("status.replicas %d, want the raced read's 1: only a stale read is read again", got)
	}
	p.Object().Status.Replicas = 5
	if err := p.Flush(ctx); errors.Is(err, patcher.ErrStaleCache) || !apierrors.IsConflict(err) {
		t.Fatalf("Flush: got %v, want the server's Conflict", err)
	}
}

// New cannot know when the caller's read began, so an object older than
// this process's write is never called stale: its write conflicts, and
// Retry converges by re-reading.
func TestNewOnObjectBehindOwnWriteIsNotStale(t *testing.T) {
	ctx := context.Background()
	inner, _, _ := newClient(t, trackedDeployment(t))
	c := &passClient{inner} // a pointer: a client the records can key
	old := fetch(t, c)
	writeOwn(t, c, 2)

	p := patcher.New(c, old.DeepCopy())
	if err := p.Fresh(ctx); err != nil {
		t.Errorf("Fresh: got %v, want nil", err)
	}
	p.Object().Status.Replicas = 6
	if err := p.Flush(ctx); errors.Is(err, patcher.ErrStaleCache) || !apierrors.IsConflict(err) {
		t.Errorf("Flush: got %v, want the server's Conflict", err)
	}
	p = patcher.New(c, old.DeepCopy(), patcher.WithAPIReader(c))
	var seen []int32
	err := p.Retry(ctx, func(d *appsv1.Deployment) error {
		seen = append(seen, d.Status.Replicas)
		d.Status.Replicas += 10
		return nil
	})
	if err != nil {
		t.Fatalf("Retry: %v", err)
	}
	if fmt.Sprint(seen) != "[1 2]" || fetch(t, c).Status.Replicas != 12 {
		t.Errorf("mutate saw replicas %v, server has %d; want [1 2] (a conflict, then the fresh read) and 12", seen, fetch(t, c).Status.Replicas)
	}
}

// Retry without an API reader re-reads through the client; when that is a
// cache behind this process's own write, it stops with ErrStaleCache after
// the first conflict instead of spending its budget on the same stale
// object.
func TestRetryThroughStaleCacheStops(t *testing.T) {
	ctx := context.Background()
	c, _, log := newClient(t, trackedDeployment(t))
	cache := &frozenCache{Client: c, snap: fetch(t, c)}
	old := fetch(t, c)
	writeOwn(t, cache, 2)
	before := log.count("patch", "status")

	// A small budget, so that a broken check fails fast instead of retrying
	// for DefaultRetryTimeout.
	p := patcher.New(cache, old, patcher.WithBackoff(wait.Backoff{Duration: time.Millisecond, Steps: 3}))
	attempts := 0
	err := p.Retry(ctx, func(d *appsv1.Deployment) error { attempts++; d.Status.Replicas = 9; return nil })
	var stale *patcher.StaleCacheError
	if !errors.As(err, &stale) {
		t.Fatalf("Retry: got %v, want a StaleCacheError", err)
	}
	// The version book already knows the own write: the conflict is not
	// even sent; the stale re-read then stops Retry.
	if sent := log.count("patch", "status") - before; attempts != 1 || sent != 0 {
		t.Errorf("%d attempts, %d writes; want 1 and 0 (the known conflict, then the stale re-read stops it)", attempts, sent)
	}
}

// ForManager's defaults reach every Patcher made from its client, and
// per-call options come after them.
func TestForManagerCarriesDefaults(t *testing.T) {
	ctx := context.Background()
	c, _, _ := newClient(t, trackedDeployment(t))
	cache := &frozenCache{Client: c, snap: fetch(t, c)}
	writeOwn(t, cache, 4)
	pc := patcher.ForManager(fakeManager{client: cache, reader: c}, patcher.WithFieldOwner("me"))
	if len(pc.Options()) != 2 {
		t.Errorf("ForManager carries %d options, want 2 (API reader, field owner)", len(pc.Options()))
	}
	p, err := patcher.Fetch(ctx, pc, key, &appsv1.Deployment{})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Object().Status.Replicas; got != 4 {
		t.Errorf("status.replicas %d, want 4: the manager's API reader was not used", got)
	}
	if err := patcher.New(patcher.ForManager(nil), deployment()).Err(); !errors.Is(err, patcher.ErrInvalidInput) {
		t.Errorf("ForManager(nil): got %v, want ErrInvalidInput", err)
	}
	var nilClient *patcher.Client
	if err := patcher.New(nilClient, deployment()).Err(); !errors.Is(err, patcher.ErrInvalidInput) {
		t.Errorf("nil *patcher.Client: got %v, want ErrInvalidInput", err)
	}
}

type fakeManager struct {
	client client.Client
	reader client.Reader
}

func (m fakeManager) GetClient() client.Client    { return m.client }
func (m fakeManager) GetAPIReader() client.Reader { return m.reader }
