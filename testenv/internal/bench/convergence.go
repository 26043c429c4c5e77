package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"
)

// update appends entry to the Widget's status.items, retrying as the variant
// does, and returns the number of write attempts.
type update func(ctx context.Context, c client.Client, key client.ObjectKey, entry string) (attempts int, err error)

// withPatcher is Retry: re-read through the API reader, re-run, re-write.
func withPatcher(ctx context.Context, c client.Client, key client.ObjectKey, entry string) (int, error) {
	p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, patcher.WithMetrics(nil))
	if err != nil {
		return 0, err
	}
	attempts := 0
	err = p.Retry(ctx, func(w *v1.Widget) error {
		attempts++
		w.Status.Items = append(w.Status.Items, entry)
		return nil
	})
	return attempts, err
}

// requeueOnConflict is the handwritten optimistic patch in a reconciler that
// returns the 409: controller-runtime requeues the object after the default
// controller rate limiter's delay (per item: 5ms doubling; overall: 10 qps,
// burst 100), and the next reconcile reads again and writes again.
func requeueOnConflict() update {
	limiter := workqueue.DefaultTypedControllerRateLimiter[client.ObjectKey]()
	return func(ctx context.Context, c client.Client, key client.ObjectKey, entry string) (int, error) {
		for attempts := 1; ; attempts++ {
			w := &v1.Widget{}
			if err := c.Get(ctx, key, w); err != nil {
				return attempts, err
			}
			base := w.DeepCopy()
			w.Status.Items = append(w.Status.Items, entry)
			err := c.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
			if err == nil {
				limiter.Forget(key)
				return attempts, nil
			}
			if !apierrors.IsConflict(err) {
				return attempts, err
			}
			select {
			case <-ctx.Done():
				return attempts, ctx.Err()
			case <-time.After(limiter.When(key)):
			}
		}
	}
}

// blind is client.MergeFrom without the lock: one attempt, never a conflict.
func blind(ctx context.Context, c client.Client, key client.ObjectKey, entry string) (int, error) {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return 1, err
	}
	base := w.DeepCopy()
	w.Status.Items = append(w.Status.Items, entry)
	return 1, c.Status().Patch(ctx, w, client.MergeFrom(base))
}

type result struct {
	wall     time.Duration
	attempts int
	most     int // the most attempts one update needed
	lost     int
	failed   int
	p50, p99 time.Duration
	slowest  time.Duration // the longest one update took
}

// contend runs k writers with their own update function (a fresh one per
// writer, as each writer is its own controller with its own queue), each
// appending m entries to one new Widget.
func contend(ctx context.Context, env *testenv.Env, name string, k, m int, newUpdate func() update) (result, error) {
	key := client.ObjectKey{Namespace: "default", Name: fmt.Sprintf("%s-%d-%d", name, k, time.Now().UnixNano())}
	if err := env.Client.Create(ctx, &v1.Widget{ObjectMeta: metav1.ObjectMeta{Name: key.Name, Namespace: key.Namespace}}); err != nil {
		return result{}, err
	}
	var (
		mu        sync.Mutex
		latencies []time.Duration
		res       result
		wg        sync.WaitGroup
	)
	start := make(chan struct{})
	for w := range k {
		// A client per writer: K writers are K controllers (separate
		// managers), meeting only at the server. (Writers sharing one client
		// queue in the patcher's version book instead.)
		c, err := client.New(env.Config, client.Options{Scheme: env.Scheme, Mapper: env.Mapper})
		if err != nil {
			return result{}, err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			up := newUpdate()
			<-start
			for i := range m {
				t := time.Now()
				attempts, err := up(ctx, c, key, fmt.Sprintf("w%d-%d", w, i))
				d := time.Since(t)
				mu.Lock()
				res.attempts += attempts
				res.most = max(res.most, attempts)
				if err != nil {
					res.failed++
				} else {
					latencies = append(latencies, d)
				}
				mu.Unlock()
			}
		}()
	}
	t := time.Now()
	close(start)
	wg.Wait()
	res.wall = time.Since(t)
	final := &v1.Widget{}
	if err := env.Client.Get(ctx, key, final); err != nil {
		return res, err
	}
	res.lost = k*m - res.failed - len(final.Status.Items)
	slices.Sort(latencies)
	if n := len(latencies); n > 0 {
		res.p50, res.p99, res.slowest = latencies[n/2], latencies[min(n-1, n*99/100)], latencies[n-1]
	}
	return res, nil
}

// convergence runs every variant at every K, repeat times (the variants'
// order alternating between repetitions, so a machine getting busier does
// not always hit the same one), prints the median ratio per K, then the
// table of the last repetition.
func convergence(ctx context.Context, env *testenv.Env, ks []int, m, repeat int, variants map[string]bool) error {
	fmt.Printf("## Convergence under contention: K writers x %d status updates to one object\n\n", m)
	type row struct {
		k                     int
		retry, requeue, blind result
		ratios                []float64
		lost                  bool
	}
	rows := make([]row, len(ks))
	for rep := range max(repeat, 1) {
		for i, k := range ks {
			r := &rows[i]
			r.k = k
			vs := []struct {
				name string
				res  *result
				mk   func() update
			}{
				{"retry", &r.retry, func() update { return withPatcher }},
				{"requeue", &r.requeue, requeueOnConflict},
				{"blind", &r.blind, func() update { return blind }},
			}
			if rep%2 == 1 {
				vs[0], vs[1] = vs[1], vs[0]
			}
			for _, v := range vs {
				if !variants[v.name] {
					continue
				}
				var err error
				if *v.res, err = contend(ctx, env, v.name, k, m, v.mk); err != nil {
					return err
				}
			}
			if r.retry.wall > 0 && r.requeue.wall > 0 {
				r.ratios = append(r.ratios, r.retry.wall.Seconds()/r.requeue.wall.Seconds())
			}
			r.lost = r.lost || r.retry.lost != 0 || r.retry.failed != 0 || r.requeue.lost != 0
		}
	}
	// Verdict first.
	for _, r := range rows {
		if len(r.ratios) == 0 {
			continue
		}
		slices.Sort(r.ratios)
		fmt.Printf("ratio K=%-2d  time to converge, Retry / requeue-on-conflict = %.2f   (median of %d; lost in the last run: Retry %d, requeue %d, blind MergeFrom %d of %d)\n",
			r.k, r.ratios[len(r.ratios)/2], len(r.ratios), r.retry.lost, r.requeue.lost, r.blind.lost, r.k*m)
	}
	fmt.Println()
	fmt.Println("| K | variant | time to converge | attempts (most for one update) | p50 / p99 / slowest update | failed | lost updates |")
	fmt.Println("|---|---|---|---|---|---|---|")
	for _, r := range rows {
		for _, v := range []struct {
			name string
			res  result
		}{{"patcher Retry", r.retry}, {"optimistic + requeue (default rate limiter)", r.requeue}, {"blind MergeFrom", r.blind}} {
			if v.res.wall == 0 {
				continue // variant not run
			}
			fmt.Printf("| %d | %s | %s | %d (%d) | %s / %s / %s | %d | %d |\n", r.k, v.name, v.res.wall.Round(time.Millisecond),
				v.res.attempts, v.res.most, v.res.p50.Round(100*time.Microsecond), v.res.p99.Round(100*time.Microsecond), v.res.slowest.Round(time.Millisecond), v.res.failed, v.res.lost)
		}
	}
	for _, r := range rows {
		if r.lost {
			return errors.New("an optimistic variant lost or failed an update: see the table")
		}
	}
	return nil
}
