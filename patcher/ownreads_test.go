package patcher_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher"
)

// countedClient counts the Gets made through the client it wraps, and the
// options the last one carried.
type countedClient struct {
	client.Client
	gets, opts int
}

func (c *countedClient) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	c.gets++
	c.opts = len(opts)
	return c.Client.Get(ctx, key, obj, opts...)
}

// countedReader counts the Gets made through the reader it wraps; with err
// set it fails them.
type countedReader struct {
	client.Reader
	gets, opts int
	err        error
}

func (r *countedReader) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	r.gets++
	r.opts = len(opts)
	if r.err != nil {
		return r.err
	}
	return r.Reader.Get(ctx, key, obj, opts...)
}

// ownReadsSetup is a ForManager Client over a cache frozen at the
// Deployment's first version (replicas 1) and a counted API reader.
func ownReadsSetup(t *testing.T) (*patcher.Client, *countedClient, *countedReader, *frozenCache) {
	c, _, _ := newClient(t, trackedDeployment(t))
	frozen := &frozenCache{Client: c, snap: fetch(t, c)}
	cache := &countedClient{Client: frozen}
	reader := &countedReader{Reader: c}
	return patcher.ForManager(fakeManager{client: cache, reader: reader}), cache, reader, frozen
}

// A Get after this process's own status write, through a cache that lags,
// reads the object again through the API reader, and a patcher made from
// that read writes without a conflict.
func TestClientGetReadsOwnWrite(t *testing.T) {
	ctx := context.Background()
	pc, cache, reader, _ := ownReadsSetup(t)
	writeOwn(t, pc, 2)
	cache.gets, reader.gets = 0, 0

	d := &appsv1.Deployment{}
	if err := pc.Get(ctx, key, d, client.UnsafeDisableDeepCopy); err != nil {
		t.Fatal(err)
	}
	if d.Status.Replicas != 2 || cache.gets != 1 || reader.gets != 1 {
		t.Fatalf("replicas %d after %d cached and %d API reads; want the own write's 2 after 1 and 1", d.Status.Replicas, cache.gets, reader.gets)
	}
	if cache.opts != 1 || reader.opts != 1 {
		t.Errorf("the GetOption reached the cache %d and the API reader %d times, want 1 and 1", cache.opts, reader.opts)
	}
	p := patcher.New(pc, d)
	p.Object().Status.Replicas = 3
	if err := p.Flush(ctx); err != nil {
		t.Fatalf("Flush from the re-Get: %v", err)
	}
}

// An object this process never wrote: one cached read, none through the
// API reader; the same for an object written here through a Client
// without an API reader.
func TestClientGetNeverWrittenReadsOnce(t *testing.T) {
	ctx := context.Background()
	pc, cache, reader, frozen := ownReadsSetup(t)
	d := &appsv1.Deployment{}
	if err := pc.Get(ctx, key, d); err != nil {
		t.Fatal(err)
	}
	if cache.gets != 1 || reader.gets != 0 {
		t.Errorf("%d cached and %d API reads of an object never written here, want 1 and 0", cache.gets, reader.gets)
	}

	plain := patcher.WithDefaults(cache)
	writeOwn(t, plain, 2)
	cache.gets = 0
	if err := plain.Get(ctx, key, d); err != nil {
		t.Fatal(err)
	}
	if d.ResourceVersion != frozen.snap.ResourceVersion || cache.gets != 1 || reader.gets != 0 {
		t.Errorf("without an API reader: resourceVersion %s after %d cached and %d API reads, want the cache's %s after 1 and 0",
			d.ResourceVersion, cache.gets, reader.gets, frozen.snap.ResourceVersion)
	}
}

// A read that began before this process's write completed raced with it:
// it is left as it is, with no read through the API reader.
func TestClientGetRacedReadIsKept(t *testing.T) {
	ctx := context.Background()
	pc, _, reader, frozen := ownReadsSetup(t)
	frozen.onGet = func() {
		frozen.onGet = nil
		writeOwn(t, pc, 2) // completes while the read is in flight
	}
	d := &appsv1.Deployment{}
	if err := pc.Get(ctx, key, d); err != nil {
		t.Fatal(err)
	}
	if d.Status.Replicas != 1 || reader.gets != 0 {
		t.Errorf("replicas %d after %d API reads; want the raced read's 1 and 0", d.Status.Replicas, reader.gets)
	}
}

// The fresh read's error names the object and wraps the reader's; the
// object keeps the cached read.
func TestClientGetFreshReadError(t *testing.T) {
	ctx := context.Background()
	pc, _, reader, frozen := ownReadsSetup(t)
	writeOwn(t, pc, 2)
	boom := errors.New("boom")
	reader.err = boom
	d := &appsv1.Deployment{}
	err := pc.Get(ctx, key, d)
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "default/web") || !strings.Contains(err.Error(), "Deployment") {
		t.Fatalf("Get: got %v, want the reader's error wrapped, naming Deployment default/web", err)
	}
	if d.ResourceVersion != frozen.snap.ResourceVersion {
		t.Errorf("after the failed re-read: resourceVersion %s, want the cached read's %s", d.ResourceVersion, frozen.snap.ResourceVersion)
	}
}
