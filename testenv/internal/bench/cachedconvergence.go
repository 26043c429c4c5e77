package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv"
)

// cachedResult is one run: K writers x M updates of one variant.
type cachedResult struct {
	wall       time.Duration // until every writer converged or gave up at the bound
	conflicts  int           // 409 responses the writers received
	reconciles int           // reconciles run (first tries and requeues)
	errors     int           // reconciles that returned an error and were requeued
	converged  int           // updates that were written
	failed     int           // updates not written within the bound
	lost       int           // converged updates missing from the final object
}

func (r cachedResult) conflictsPerUpdate() float64 {
	if r.converged == 0 {
		return 0
	}
	return float64(r.conflicts) / float64(r.converged)
}

// contendCached runs the writers, each reconciling its m updates one after
// the other, every update until it is written: a reconcile that returns an
// error is requeued with controller-runtime's default controller rate
// limiter (one per writer: each is its own controller). Writers that have
// not converged when bound has passed give up.
func contendCached(ctx context.Context, env *testenv.Env, writers []*cachedWriter, m int, wl workload, fn reconcileOnce, bound time.Duration) (cachedResult, error) {
	k := len(writers)
	key := client.ObjectKey{Namespace: "default", Name: fmt.Sprintf("cached-%s-%d-%d", wl.name, k, time.Now().UnixNano())}
	if err := env.Client.Create(ctx, &v1.Widget{ObjectMeta: metav1.ObjectMeta{Name: key.Name, Namespace: key.Namespace}}); err != nil {
		return cachedResult{}, fmt.Errorf("create %s: %w", key, err)
	}
	for i, wr := range writers {
		if err := wr.waitCached(ctx, key); err != nil {
			return cachedResult{}, fmt.Errorf("writer %d: %w", i, err)
		}
		wr.transport.conflicts.Store(0)
	}
	var (
		mu        sync.Mutex
		res       cachedResult
		wg        sync.WaitGroup
		last      = make([]int, k)
		converged = make([][]bool, k)
	)
	rctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	start := make(chan struct{})
	for w, wr := range writers {
		last[w], converged[w] = -1, make([]bool, m)
		wg.Add(1)
		go func() {
			defer wg.Done()
			limiter := workqueue.DefaultTypedControllerRateLimiter[client.ObjectKey]()
			owned := wl.owned(w)
			<-start
			for i := range m {
				mutate := func(obj *v1.Widget) { wl.mutate(obj, w, i) }
				reconciles, errs, ok := reconcileUntilWritten(rctx, limiter, key, func() error { return fn(rctx, wr, key, owned, mutate) })
				mu.Lock()
				res.reconciles += reconciles
				res.errors += errs
				if ok {
					res.converged++
					converged[w][i], last[w] = true, i
				} else {
					res.failed++
				}
				mu.Unlock()
			}
		}()
	}
	t := time.Now()
	close(start)
	wg.Wait()
	res.wall = time.Since(t)
	for _, wr := range writers {
		res.conflicts += int(wr.transport.conflicts.Load())
	}
	final := &v1.Widget{}
	if err := env.Client.Get(ctx, key, final); err != nil {
		return res, fmt.Errorf("get %s: %w", key, err)
	}
	res.lost = wl.lost(final, last, converged)
	return res, nil
}

// reconcileUntilWritten runs reconcile until it succeeds, waiting the rate
// limiter's delay after each error, as a controller requeues a failed
// reconcile; it gives up when ctx is done.
func reconcileUntilWritten(ctx context.Context, limiter workqueue.TypedRateLimiter[client.ObjectKey], key client.ObjectKey, reconcile func() error) (reconciles, errs int, ok bool) {
	for {
		reconciles++
		if err := reconcile(); err == nil {
			limiter.Forget(key)
			return reconciles, errs, true
		}
		errs++
		select {
		case <-ctx.Done():
			return reconciles, errs, false
		case <-time.After(limiter.When(key)):
		}
	}
}

// cachedConvergence runs every workload and variant at every lag and K,
// repeat times (the variants' order rotating between repetitions), K
// writers each with a cache of its own, and prints the ratios from the
// same runs, then the table of medians.
func cachedConvergence(ctx context.Context, env *testenv.Env, ks []int, m int, lags []time.Duration, repeat int, bound time.Duration, variants map[string]bool) error {
	fmt.Printf("## Convergence through caches: K writers x %d status updates to one object, each writer reading its own informer cache\n\n", m)
	type cell struct{ runs []cachedResult }
	cells := map[string]*cell{}
	id := func(wl string, lag time.Duration, k int, v string) string {
		return fmt.Sprintf("%s/%s/%d/%s", wl, lag, k, v)
	}
	workloads := []workload{itemsWorkload, conditionsWorkload}
	for _, lag := range lags {
		for _, k := range ks {
			pctx, stopCaches := context.WithCancel(ctx)
			writers, err := newCachedWriters(pctx, env, k, lag)
			if err != nil {
				stopCaches()
				return err
			}
			for rep := range max(repeat, 1) {
				for _, wl := range workloads {
					for j := range cachedVariants {
						v := cachedVariants[(j+rep)%len(cachedVariants)]
						if !variants[v.name] {
							continue
						}
						res, err := contendCached(ctx, env, writers, m, wl, v.fn, bound)
						if err != nil {
							stopCaches()
							return fmt.Errorf("%s, lag %s, K=%d, %s: %w", wl.name, lag, k, v.name, err)
						}
						fmt.Fprintf(os.Stderr, "run %d: %s, lag %s, K=%d, %s: %s, %d 409s, %d converged, %d failed, %d lost\n",
							rep+1, wl.name, lag, k, v.name, res.wall.Round(time.Millisecond), res.conflicts, res.converged, res.failed, res.lost)
						c := cells[id(wl.name, lag, k, v.name)]
						if c == nil {
							c = &cell{}
							cells[id(wl.name, lag, k, v.name)] = c
						}
						c.runs = append(c.runs, res)
					}
				}
			}
			stopCaches()
		}
	}
	summary := func(wl string, lag time.Duration, k int, v string) (cachedSummary, bool) {
		c := cells[id(wl, lag, k, v)]
		if c == nil {
			return cachedSummary{}, false
		}
		return summarize(c.runs), true
	}
	// Verdict first: ratios of medians from the same runs.
	for _, wl := range workloads {
		for _, lag := range lags {
			for _, k := range ks {
				sp, ok := summary(wl.name, lag, k, "retry")
				if !ok {
					continue
				}
				line := fmt.Sprintf("ratio %-10s lag=%-5s K=%-2d ", wl.name, lag, k)
				sep := " time to converge, statuspatch /"
				for _, other := range []string{"requeue", "capi"} {
					if o, ok := summary(wl.name, lag, k, other); ok {
						line += fmt.Sprintf("%s %s %s", sep, other, wallRatio(sp, o))
						sep = ","
					}
				}
				line += "   409s per converged update:"
				for _, v := range cachedVariants {
					if s, ok := summary(wl.name, lag, k, v.name); ok {
						line += fmt.Sprintf(" %s %.2f", v.name, s.perUpdate)
					}
				}
				fmt.Println(line)
			}
		}
	}
	fmt.Printf("\nmedians of %d run(s); failed and lost: the worst run; bound %s per run\n\n", max(repeat, 1), bound)
	var lost []string
	fmt.Println("| workload | cache lag | K | variant | time to converge | 409s per converged update | reconcile errors | failed (not converged) | lost updates |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for _, wl := range workloads {
		for _, lag := range lags {
			for _, k := range ks {
				for _, v := range cachedVariants {
					s, ok := summary(wl.name, lag, k, v.name)
					if !ok {
						continue
					}
					wall := s.wall.Round(time.Millisecond).String()
					if s.failed > 0 {
						wall = "> " + bound.String() + " (did not converge)"
					}
					fmt.Printf("| %s | %s | %d | %s | %s | %.2f | %d | %d of %d | %d |\n", wl.name, lag, k, v.label, wall, s.perUpdate, s.errors, s.failed, k*m, s.lost)
					if s.lost > 0 && mustNotLose(wl.name, v.name) {
						lost = append(lost, fmt.Sprintf("%s at lag %s, K=%d: %s lost %d", wl.name, lag, k, v.name, s.lost))
					}
				}
			}
		}
	}
	if len(lost) > 0 {
		return fmt.Errorf("a variant that writes under the lock lost updates: %s", strings.Join(lost, "; "))
	}
	return nil
}

// mustNotLose tells the variants whose writes are all under the optimistic
// lock in the workload: a loss there is a bug, in the variant or the bench.
func mustNotLose(workload, variant string) bool {
	switch variant {
	case "retry", "requeue":
		return true
	case "capi":
		return workload == conditionsWorkload.name
	}
	return false
}

// cachedSummary is a cell's runs: medians of time and conflicts per update,
// the worst run's reconcile errors, failures and losses.
type cachedSummary struct {
	wall                 time.Duration
	perUpdate            float64
	errors, failed, lost int
}

func summarize(runs []cachedResult) cachedSummary {
	var s cachedSummary
	walls := make([]time.Duration, len(runs))
	per := make([]float64, len(runs))
	for i, r := range runs {
		walls[i], per[i] = r.wall, r.conflictsPerUpdate()
		s.errors, s.failed, s.lost = max(s.errors, r.errors), max(s.failed, r.failed), max(s.lost, r.lost)
	}
	slices.Sort(walls)
	slices.Sort(per)
	s.wall, s.perUpdate = walls[len(walls)/2], per[len(per)/2]
	return s
}

// wallRatio is a's time to converge over b's. A variant that did not
// converge took the bound, longer than it shows: the ratio is then a bound.
func wallRatio(a, b cachedSummary) string {
	r := fmt.Sprintf("%.2f", a.wall.Seconds()/b.wall.Seconds())
	switch {
	case a.failed > 0 && b.failed > 0:
		return "n/a (neither converged)"
	case b.failed > 0:
		return "< " + r + " (did not converge)"
	case a.failed > 0:
		return "> " + r + " (statuspatch did not converge)"
	}
	return r
}
