package patcherit_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
)

// watchGate makes a manager's cache lag on demand: while it is held, what
// the server sends on watch connections is held back in the client until
// release, so the cache keeps serving the objects as they were.
type watchGate struct {
	mu   sync.Mutex
	cond *sync.Cond
	held bool
}

func newWatchGate() *watchGate {
	g := &watchGate{}
	g.cond = sync.NewCond(&g.mu)
	return g
}

func (g *watchGate) hold() {
	g.mu.Lock()
	g.held = true
	g.mu.Unlock()
}

func (g *watchGate) release() {
	g.mu.Lock()
	g.held = false
	g.mu.Unlock()
	g.cond.Broadcast()
}

func (g *watchGate) pass() {
	g.mu.Lock()
	for g.held {
		g.cond.Wait()
	}
	g.mu.Unlock()
}

// wrap is a rest.Config WrapTransport: watch responses get a body whose
// reads wait for the gate after the data arrived, so an event that arrives
// while the gate is held reaches the informer only after release. It
// holds the informers' watches, not a patcher's one-object history watch
// after a 409 (a field selector on metadata.name, from ForManager's
// watcher, which shares the manager's config): the gate models a lagging
// cache, not a lagging API server.
func (g *watchGate) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		resp, err := rt.RoundTrip(req)
		q := req.URL.Query()
		if err == nil && q.Get("watch") == "true" && !strings.HasPrefix(q.Get("fieldSelector"), "metadata.name=") {
			resp.Body = &gatedBody{ReadCloser: resp.Body, gate: g}
		}
		return resp, err
	})
}

type gatedBody struct {
	io.ReadCloser
	gate *watchGate
}

func (b *gatedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.gate.pass()
	return n, err
}

// laggingManager starts a manager on the shared server whose watches pass
// through gate (and every request through wraps), after setup registered
// its controllers, and returns once its Widget informer has synced. A
// cacheWatch reports what the cache has seen.
func laggingManager(t *testing.T, setup func(manager.Manager) error, wraps ...func(http.RoundTripper) http.RoundTripper) (manager.Manager, *watchGate, *cacheWatch) {
	t.Helper()
	return laggingManagerWith(t, manager.Options{}, setup, wraps...)
}

// laggingManagerWith is laggingManager with the manager's options.
func laggingManagerWith(t *testing.T, opts manager.Options, setup func(manager.Manager) error, wraps ...func(http.RoundTripper) http.RoundTripper) (manager.Manager, *watchGate, *cacheWatch) {
	t.Helper()
	e := *env(t)
	gate := newWatchGate()
	e.Config = rest.CopyConfig(e.Config)
	e.Config.Wrap(gate.wrap)
	for _, w := range wraps {
		e.Config.Wrap(w)
	}
	opts.Controller.SkipNameValidation = ptr.To(true)
	mgr, err := e.NewManager(opts)
	if err != nil {
		t.Fatal(err)
	}
	if setup != nil {
		if err := setup(mgr); err != nil {
			t.Fatal(err)
		}
	}
	mctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- mgr.Start(mctx) }()
	t.Cleanup(func() {
		gate.release() // a held watch would keep the manager from stopping
		cancel()
		if err := <-done; err != nil {
			t.Errorf("manager: %v", err)
		}
	})
	inf, err := mgr.GetCache().GetInformer(mctx, &v1.Widget{})
	if err != nil {
		t.Fatal(err)
	}
	w := &cacheWatch{seen: map[client.ObjectKey]string{}, changed: make(chan struct{}, 1)}
	if _, err := inf.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc:    w.observe,
		UpdateFunc: func(_, o any) { w.observe(o) },
	}); err != nil {
		t.Fatal(err)
	}
	if !mgr.GetCache().WaitForCacheSync(mctx) {
		t.Fatal("cache did not sync")
	}
	return mgr, gate, w
}

// cacheWatch records the newest resourceVersion the cache delivered per
// Widget. The informer updates its store before it calls handlers, so once
// seen, a cached Get returns that version or newer.
type cacheWatch struct {
	mu      sync.Mutex
	seen    map[client.ObjectKey]string
	changed chan struct{}
}

func (w *cacheWatch) observe(o any) {
	obj, ok := o.(client.Object)
	if !ok {
		return
	}
	w.mu.Lock()
	w.seen[client.ObjectKeyFromObject(obj)] = obj.GetResourceVersion()
	w.mu.Unlock()
	select {
	case w.changed <- struct{}{}:
	default:
	}
}

// waitFor blocks until the cache has delivered key at rv or newer. The
// timeout only turns a hang into a failure.
func (w *cacheWatch) waitFor(t *testing.T, key client.ObjectKey, rv string) {
	t.Helper()
	timeout := time.After(time.Minute)
	for {
		w.mu.Lock()
		seen := w.seen[key]
		w.mu.Unlock()
		if seen != "" {
			if cmp, err := compareRV(seen, rv); err == nil && cmp >= 0 {
				return
			}
		}
		select {
		case <-w.changed:
		case <-timeout:
			t.Fatalf("the cache never delivered %s at resourceVersion %s (last seen %q)", key, rv, seen)
		}
	}
}
