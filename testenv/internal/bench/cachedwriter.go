package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv"
)

// cachedWriter is one writer that reads the way a controller-runtime
// reconciler does: its own informer cache, whose watch events arrive lag
// late, behind a client that reads from the cache and writes to the
// server (a manager's GetClient), plus an uncached reader (GetAPIReader).
// It is a patcher.Manager, so patcher.ForManager takes it as it takes a
// manager.
type cachedWriter struct {
	client    client.Client // reads from cache, writes to the server
	apiReader client.Reader // reads from the server
	cache     cache.Cache
	transport *lagTransport
}

func (w *cachedWriter) GetClient() client.Client    { return w.client }
func (w *cachedWriter) GetAPIReader() client.Reader { return w.apiReader }

// newCachedWriters starts k writers, each with its own connection and
// informer cache, and returns once every cache has synced. The caches stop
// when ctx is done.
func newCachedWriters(ctx context.Context, env *testenv.Env, k int, lag time.Duration) ([]*cachedWriter, error) {
	writers := make([]*cachedWriter, k)
	for i := range writers {
		t := &lagTransport{}
		t.setLag(lag)
		cfg := rest.CopyConfig(env.Config)
		cfg.Wrap(t.wrap)
		c, err := cache.New(cfg, cache.Options{Scheme: env.Scheme, Mapper: env.Mapper, DefaultNamespaces: map[string]cache.Config{"default": {}}})
		if err != nil {
			return nil, fmt.Errorf("writer %d: cache: %w", i, err)
		}
		cl, err := client.New(cfg, client.Options{Scheme: env.Scheme, Mapper: env.Mapper, Cache: &client.CacheOptions{Reader: c}})
		if err != nil {
			return nil, fmt.Errorf("writer %d: client: %w", i, err)
		}
		direct, err := client.New(cfg, client.Options{Scheme: env.Scheme, Mapper: env.Mapper})
		if err != nil {
			return nil, fmt.Errorf("writer %d: API reader: %w", i, err)
		}
		if _, err := c.GetInformer(ctx, &v1.Widget{}); err != nil {
			return nil, fmt.Errorf("writer %d: informer: %w", i, err)
		}
		go func() { _ = c.Start(ctx) }() // returns when ctx is done
		writers[i] = &cachedWriter{client: cl, apiReader: direct, cache: c, transport: t}
	}
	for i, w := range writers {
		if !w.cache.WaitForCacheSync(ctx) {
			return nil, fmt.Errorf("writer %d: cache did not sync", i)
		}
	}
	return writers, nil
}

// waitCached blocks until the writer's cache holds the object, polling:
// a new object reaches a lagging cache lag after it was created.
func (w *cachedWriter) waitCached(ctx context.Context, key client.ObjectKey) error {
	for {
		err := w.client.Get(ctx, key, &v1.Widget{})
		if err == nil {
			return nil
		}
		if !apierrors.IsNotFound(err) {
			return fmt.Errorf("cached get %s: %w", key, err)
		}
		select {
		case <-ctx.Done():
			return errors.Join(fmt.Errorf("%s never reached the cache", key), ctx.Err())
		case <-time.After(2 * time.Millisecond):
		}
	}
}
