package main

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"
)

// counter counts the requests a client sends, by method.
type counter struct {
	mu sync.Mutex
	by map[string]int
}

func (c *counter) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(r *http.Request) (*http.Response, error) {
		c.mu.Lock()
		c.by[r.Method]++
		c.mu.Unlock()
		return rt.RoundTrip(r)
	})
}

func (c *counter) reset() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.by
	c.by = map[string]int{}
	return out
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// reconcile is the status part of a reconcile of an object that is already
// converged: it sets what it would set, and writes.
type reconcile func(ctx context.Context, c client.Client, key client.ObjectKey) error

func setReady(w *v1.Widget) {
	w.Status.ObservedGeneration = w.Generation
	w.Status.Phase = "Ready"
	meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{
		Type: "Ready", Status: metav1.ConditionTrue, Reason: "Converged", ObservedGeneration: w.Generation,
	})
}

func reconcileWithPatcher(ctx context.Context, c client.Client, key client.ObjectKey) error {
	p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, patcher.WithMetrics(nil))
	if err != nil {
		return err
	}
	setReady(p.Object())
	return p.Flush(ctx)
}

// reconcileUnconditional is the common handwritten pattern: always patch.
func reconcileUnconditional(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	base := w.DeepCopy()
	setReady(w)
	return c.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
}

// reconcileUnconditionalTimestamp also stamps a "last reconciled" time, as
// many handwritten reconcilers do, so every patch is a real write.
func reconcileUnconditionalTimestamp(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	base := w.DeepCopy()
	setReady(w)
	if w.Status.Counters == nil {
		w.Status.Counters = map[string]int64{}
	}
	w.Status.Counters["lastReconcileUnixNano"] = time.Now().UnixNano()
	return c.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
}

func steadyState(ctx context.Context, env *testenv.Env, n int) error {
	cnt := &counter{by: map[string]int{}}
	cfg := rest.CopyConfig(env.Config)
	cfg.Wrap(cnt.wrap)
	c, err := client.New(cfg, client.Options{Scheme: env.Scheme, Mapper: env.Mapper})
	if err != nil {
		return err
	}
	type row struct {
		name            string
		gets, writes    int
		rvBumps, events int
	}
	var rows []row
	for _, v := range []struct {
		name string
		fn   reconcile
	}{
		{"patcher Flush", reconcileWithPatcher},
		{"handwritten unconditional patch", reconcileUnconditional},
		{"handwritten unconditional patch + timestamp", reconcileUnconditionalTimestamp},
	} {
		key := client.ObjectKey{Namespace: "default", Name: fmt.Sprintf("steady-%d", len(rows))}
		if err := env.Client.Create(ctx, &v1.Widget{ObjectMeta: metav1.ObjectMeta{Name: key.Name, Namespace: key.Namespace}}); err != nil {
			return err
		}
		if err := v.fn(ctx, c, key); err != nil { // converge once
			return err
		}
		var events atomic.Int32
		wctx, cancel := context.WithCancel(ctx)
		w, err := watchObject(wctx, env, key, &events)
		if err != nil {
			cancel()
			return err
		}
		before := &v1.Widget{}
		if err := env.Client.Get(ctx, key, before); err != nil {
			cancel()
			return err
		}
		cnt.reset()
		bumps := 0
		rv := before.ResourceVersion
		for range n {
			if err := v.fn(ctx, c, key); err != nil {
				cancel()
				return fmt.Errorf("%s: %w", v.name, err)
			}
			now := &v1.Widget{}
			if err := env.Client.Get(ctx, key, now); err != nil {
				cancel()
				return err
			}
			if now.ResourceVersion != rv {
				bumps++
				rv = now.ResourceVersion
			}
		}
		reqs := cnt.reset()
		time.Sleep(200 * time.Millisecond) // let the last watch events arrive
		cancel()
		w.Stop()
		rows = append(rows, row{name: v.name, gets: reqs[http.MethodGet], writes: reqs[http.MethodPatch] + reqs[http.MethodPut],
			rvBumps: bumps, events: int(events.Load())})
	}
	fmt.Printf("ratio  writes per no-op reconcile, patcher / unconditional patch = %d / %d (over %d reconciles)\n\n",
		rows[0].writes, rows[1].writes, n)
	fmt.Printf("## Requests per steady-state no-op reconcile (%d reconciles of a converged object)\n\n", n)
	fmt.Println("| variant | GETs / reconcile | writes / reconcile | resourceVersion bumps | watch events |")
	fmt.Println("|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Printf("| %s | %.1f | %.1f | %d | %d |\n", r.name, float64(r.gets)/float64(n), float64(r.writes)/float64(n), r.rvBumps, r.events)
	}
	if rows[0].writes != 0 {
		return fmt.Errorf("the patcher wrote %d times in %d no-op reconciles", rows[0].writes, n)
	}
	return nil
}

// watchObject counts the watch events for one object until ctx is done.
func watchObject(ctx context.Context, env *testenv.Env, key client.ObjectKey, events *atomic.Int32) (watch.Interface, error) {
	wc, err := client.NewWithWatch(env.Config, client.Options{Scheme: env.Scheme, Mapper: env.Mapper})
	if err != nil {
		return nil, err
	}
	w, err := wc.Watch(ctx, &v1.WidgetList{}, client.InNamespace(key.Namespace), client.MatchingFields{"metadata.name": key.Name})
	if err != nil {
		return nil, err
	}
	go func() {
		for range w.ResultChan() {
			events.Add(1)
		}
	}()
	return w, nil
}
