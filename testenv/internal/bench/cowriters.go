package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"
)

// Two controllers own disjoint parts of the same Widgets' status: alpha
// owns status.phase and the condition "Alpha", beta owns
// status.counters["beta"] and the condition "Beta". Each makes m updates to
// each object, all at once; update i sets values that depend on i alone,
// never on what was read (the case where apply without the lock is safe).

// coOwner is one controller's part of the status.
type coOwner struct {
	name, condition string
	set             func(w *v1.Widget, i int)
	holds           func(w *v1.Widget, i int) bool
}

var coOwners = [2]coOwner{
	{
		name: "alpha", condition: "Alpha",
		set:   func(w *v1.Widget, i int) { w.Status.Phase = fmt.Sprintf("alpha-%d", i) },
		holds: func(w *v1.Widget, i int) bool { return w.Status.Phase == fmt.Sprintf("alpha-%d", i) },
	},
	{
		name: "beta", condition: "Beta",
		set: func(w *v1.Widget, i int) {
			if w.Status.Counters == nil {
				w.Status.Counters = map[string]int64{}
			}
			w.Status.Counters["beta"] = int64(i)
		},
		holds: func(w *v1.Widget, i int) bool { return w.Status.Counters["beta"] == int64(i) },
	},
}

// decide sets o's field and condition for update i.
func (o coOwner) decide(w *v1.Widget, i int) {
	o.set(w, i)
	st := metav1.ConditionFalse
	if i%2 == 1 {
		st = metav1.ConditionTrue
	}
	meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{
		Type: o.condition, Status: st, Reason: fmt.Sprintf("Step%d", i), Message: o.name, ObservedGeneration: w.Generation,
	})
}

// coUpdate writes owner o's update i to key and returns its write attempts.
type coUpdate func(ctx context.Context, c client.Client, key client.ObjectKey, o coOwner, i int) (int, error)

func coPatcher(opts ...patcher.Option) coUpdate { return coPatcherWith(nil, opts...) }

// coPatcherWith is coPatcher calling decided, when not nil, after each
// attempt's read and before its decision (a test's barrier).
func coPatcherWith(decided func(key client.ObjectKey, i, attempt int), opts ...patcher.Option) coUpdate {
	return func(ctx context.Context, c client.Client, key client.ObjectKey, o coOwner, i int) (int, error) {
		all := append([]patcher.Option{patcher.WithMetrics(nil), patcher.WithFieldOwner(o.name)}, opts...)
		p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, all...)
		if err != nil {
			return 0, err
		}
		attempts := 0
		err = p.Retry(ctx, func(w *v1.Widget) error {
			attempts++
			if decided != nil {
				decided(key, i, attempts)
			}
			o.decide(w, i)
			return nil
		})
		return attempts, err
	}
}

// coBlindMergeFrom is the handwritten MergeFrom without the lock: its merge
// patch carries the whole conditions list as this writer read it.
func coBlindMergeFrom(ctx context.Context, c client.Client, key client.ObjectKey, o coOwner, i int) (int, error) {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return 1, err
	}
	base := w.DeepCopy()
	o.decide(w, i)
	return 1, c.Status().Patch(ctx, w, client.MergeFrom(base))
}

type coResult struct {
	wall      time.Duration
	conflicts int // write attempts beyond the first (Retry's or the caller's)
	http409   int // 409 responses on the wire, those a Flush settles inside included
	requests  int // HTTP requests of the writers
	lost      int // owners' final values missing from the final objects
	failed    int
}

// coContend runs both owners on n new Widgets, m updates each per object,
// 2*n writers at once, each with its own client (separate managers).
func coContend(ctx context.Context, env *testenv.Env, name string, n, m int, up coUpdate) (coResult, error) {
	var keys []client.ObjectKey
	for j := range n {
		key := client.ObjectKey{Namespace: "default", Name: fmt.Sprintf("co-%s-%d-%d", name, j, time.Now().UnixNano())}
		if err := env.Client.Create(ctx, &v1.Widget{ObjectMeta: metav1.ObjectMeta{Name: key.Name, Namespace: key.Namespace}}); err != nil {
			return coResult{}, err
		}
		keys = append(keys, key)
	}
	var (
		mu  sync.Mutex
		res coResult
		wg  sync.WaitGroup
	)
	start := make(chan struct{})
	var requests, conflicts409 atomic.Int64
	cfg := rest.CopyConfig(env.Config)
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(r *http.Request) (*http.Response, error) {
			requests.Add(1)
			resp, err := rt.RoundTrip(r)
			if err == nil && resp.StatusCode == http.StatusConflict {
				conflicts409.Add(1)
			}
			return resp, err
		})
	})
	for _, key := range keys {
		for _, o := range coOwners {
			c, err := client.New(cfg, client.Options{Scheme: env.Scheme, Mapper: env.Mapper})
			if err != nil {
				return coResult{}, err
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				for i := 1; i <= m; i++ {
					attempts, err := up(ctx, c, key, o, i)
					mu.Lock()
					res.conflicts += max(attempts-1, 0)
					if err != nil {
						res.failed++
					}
					mu.Unlock()
				}
			}()
		}
	}
	t := time.Now()
	close(start)
	wg.Wait()
	res.wall = time.Since(t)
	res.http409, res.requests = int(conflicts409.Load()), int(requests.Load())
	for _, key := range keys {
		w := &v1.Widget{}
		if err := env.Client.Get(ctx, key, w); err != nil {
			return res, err
		}
		for _, o := range coOwners {
			c := meta.FindStatusCondition(w.Status.Conditions, o.condition)
			if !o.holds(w, m) {
				res.lost++
			}
			if c == nil || c.Reason != fmt.Sprintf("Step%d", m) {
				res.lost++
			}
		}
	}
	return res, nil
}

// coWriters runs every variant repeat times (order rotating) and prints the
// median ratio of apply without the lock to merge mode, then the table.
func coWriters(ctx context.Context, env *testenv.Env, n, m, repeat int) error {
	fmt.Printf("## Two controllers owning disjoint status fields (and one condition each) of the same %d Widgets, %d updates each per object\n\n", n, m)
	vs := []struct {
		name string
		up   coUpdate
		runs []coResult
	}{
		{name: "patcher, merge patch (default)", up: coPatcher()},
		{name: "patcher, WithApply", up: coPatcher(patcher.WithWriteMode(patcher.WriteApply))},
		{name: "patcher, WithApplyWithoutLock", up: coPatcher(patcher.WithWriteMode(patcher.WriteApplyWithoutLock))},
		{name: "blind MergeFrom", up: coBlindMergeFrom},
	}
	for rep := range max(repeat, 1) {
		for k := range vs {
			v := &vs[(k+rep)%len(vs)]
			r, err := coContend(ctx, env, fmt.Sprintf("v%d", (k+rep)%len(vs)), n, m, v.up)
			if err != nil {
				return fmt.Errorf("%s: %w", v.name, err)
			}
			v.runs = append(v.runs, r)
		}
	}
	median := func(rs []coResult, f func(coResult) float64) float64 {
		x := make([]float64, len(rs))
		for i, r := range rs {
			x[i] = f(r)
		}
		slices.Sort(x)
		return x[len(x)/2]
	}
	wall := func(r coResult) float64 { return r.wall.Seconds() }
	fmt.Printf("ratio  time to converge, WithApplyWithoutLock / merge patch = %.2f   (median of %d runs)\n",
		median(vs[2].runs, wall)/median(vs[0].runs, wall), len(vs[0].runs))
	fmt.Printf("ratio  time to converge, WithApply / merge patch = %.2f\n\n", median(vs[1].runs, wall)/median(vs[0].runs, wall))
	fmt.Println("| variant | time to converge (median) | write attempts beyond the first per run | HTTP 409s per run | requests per run | lost values per run (of " + fmt.Sprint(4*n) + ") | failed |")
	fmt.Println("|---|---|---|---|---|---|---|")
	var bad error
	for i, v := range vs {
		var cs, hs, rs, ls, fs []string
		for _, r := range v.runs {
			cs = append(cs, fmt.Sprint(r.conflicts))
			hs = append(hs, fmt.Sprint(r.http409))
			rs = append(rs, fmt.Sprint(r.requests))
			ls = append(ls, fmt.Sprint(r.lost))
			fs = append(fs, fmt.Sprint(r.failed))
			if i < 3 && (r.lost > 0 || r.failed > 0) {
				bad = errors.New("a patcher variant lost or failed an update: see the table")
			}
		}
		fmt.Printf("| %s | %s | %v | %v | %v | %v | %v |\n", v.name, time.Duration(median(v.runs, wall)*float64(time.Second)).Round(time.Millisecond), cs, hs, rs, ls, fs)
	}
	return bad
}
