package patcherit_test

import (
	"context"
	"fmt"
	"reflect"
	"sync/atomic"
	"testing"

	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// enableReadYourWrites turns on controller-runtime's read-your-writes
// consistency (v0.25 on) in opts, found at run time so that this test
// builds at every supported line; below v0.25 it skips.
func enableReadYourWrites(t *testing.T, opts *manager.Options) {
	t.Helper()
	if opts.Client.Cache == nil {
		opts.Client.Cache = &client.CacheOptions{}
	}
	f := reflect.ValueOf(opts.Client.Cache).Elem().FieldByName("EnableReadYourWritesConsistency")
	if !f.IsValid() {
		t.Skip("this controller-runtime has no EnableReadYourWritesConsistency (v0.25 on); TestStaleCacheAfterOwnWrite covers the version book alone")
	}
	f.Set(reflect.ValueOf(ptr.To(true)))
}

// startedReads signals on started when a cached Get begins, before it
// reaches the manager's client.
type startedReads struct {
	client.Client
	started chan struct{}
}

func (s *startedReads) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	select {
	case s.started <- struct{}{}:
	default:
	}
	return s.Client.Get(ctx, key, obj, opts...)
}

// countingReader counts the reads made through the API reader.
type countingReader struct {
	client.Reader
	gets atomic.Int32
}

func (r *countingReader) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	r.gets.Add(1)
	return r.Reader.Get(ctx, key, obj, opts...)
}

// With controller-runtime's read-your-writes consistency on, a cached read
// waits until the cache has seen this client's writes: the patcher must then
// take the read as fresh. Each round, the watch event of the patcher's own
// write is held back until the next reconcile's cached read has begun, so
// that read can only return the write by waiting for it. The patcher must
// not wait again, read through the API reader, or report a stale cache.
func TestReadYourWritesConsistency(t *testing.T) {
	opts := manager.Options{}
	enableReadYourWrites(t, &opts)
	mgr, gate, seen := laggingManagerWith(t, opts, nil)
	e := env(t)
	key := newWidget(t, e.Client)
	seen.waitFor(t, key, get(t, e.Client, key).ResourceVersion)

	reads := &countingReader{Reader: mgr.GetAPIReader()}
	cached := &startedReads{Client: mgr.GetClient(), started: make(chan struct{}, 1)}
	c := patcher.WithDefaults(cached, patcher.WithAPIReader(reads))
	p, err := patcher.Fetch(ctx, c, key, &v1.Widget{})
	if err != nil {
		t.Fatal(err)
	}
	<-cached.started
	for i := range 3 {
		gate.hold()
		phase := fmt.Sprintf("Step%d", i)
		p.Object().Status.Phase = phase
		if err := p.Flush(ctx); err != nil {
			t.Fatalf("round %d: Flush: %v", i, err)
		}
		written := p.Object().ResourceVersion

		type fetched struct {
			p   *patcher.Patcher[*v1.Widget]
			err error
		}
		done := make(chan fetched, 1)
		go func() {
			p, err := patcher.Fetch(ctx, c, key, &v1.Widget{})
			if err == nil {
				err = p.Fresh(ctx)
			}
			done <- fetched{p, err}
		}()
		<-cached.started // the cached read has begun with the write's event held back
		gate.release()
		r := <-done
		if r.err != nil {
			t.Fatalf("round %d: Fetch and Fresh after the own write: %v", i, r.err)
		}
		if got := r.p.Object(); got.ResourceVersion != written || got.Status.Phase != phase {
			t.Fatalf("round %d: read resourceVersion %s phase %q, want the own write %s %q", i, got.ResourceVersion, got.Status.Phase, written, phase)
		}
		p = r.p
	}
	if n := reads.gets.Load(); n != 0 {
		t.Fatalf("the patcher read through the API reader %d times: with read-your-writes consistency the cached read is already fresh", n)
	}
}
