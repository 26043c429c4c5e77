package search

import (
	"context"
	"math/rand/v2"
	"slices"
	"sort"
	"time"
)

// Random is how a random search runs: Seed and the shard it runs
// (Index, Index+Count, ...), schedules of up to Depth chosen steps,
// Schedules to run every index below it, or StopAtFirst; without
// Schedules, InBudget says whether another may start, and Key is a
// verdict's defect and whether it is new.
type Random[V any] struct {
	Depth       int
	Seed        int64
	Index       int
	Count       int
	Schedules   int
	StopAtFirst bool
	InBudget    func(context.Context) bool
	Key         func(*Verdict[V]) (key string, isNew bool)
}

// A Found is a failing schedule of a random search: its verdict, its
// index, and how long after the search's start it ended.
type Found[V any] struct {
	Verdict *Verdict[V]
	Index   int
	At      time.Duration
}

// A RandomResult is what a random search ran and found.
type RandomResult[V any] struct {
	// Found holds, without Schedules, the failing schedule of the lowest
	// index of each new defect (StopAtFirst: the lowest failing one),
	// not minimised; with Schedules, every failing schedule, minimised.
	// Either by index.
	Found []Found[V]
	// Schedules counts the schedules that ran without an error.
	Schedules int
	// Exhausted: Schedules was set and every index below it ran.
	Exhausted bool
}

// RunRandom runs the random schedules of o on a pool of workers.
// Schedule i makes its choices from a source seeded with (Seed, i), so
// it is the same schedule whichever worker runs it, and whichever shard.
// Without Schedules the search runs while InBudget and keeps, of each
// new defect (Key), the schedule of the lowest index; with StopAtFirst
// it stops at the first failure: no index after it is started, the ones
// before it finish, and the failure of the lowest index is kept, the
// one a single worker finds. With Schedules, every index below it runs
// and every failure is minimised, on the worker that ran it. On an
// error the result still counts the schedules run.
func RunRandom[W Runner[V], V any](ctx context.Context, workers []W, o Random[V]) (RandomResult[V], error) {
	step := max(o.Count, 1)
	all := o.Schedules > 0
	type result struct {
		Found[V]
		w   W
		err error
	}
	start := time.Now()
	next := o.Index
	var first *Found[V] // the lowest index found failing, with StopAtFirst
	more := func() bool {
		if all {
			return next < o.Schedules && ctx.Err() == nil
		}
		return o.InBudget(ctx) && (first == nil || next < first.Index || !o.StopAtFirst)
	}
	lowest := map[string]Found[V]{} // without Schedules or StopAtFirst: by Key
	idle := slices.Clone(workers)
	results := make(chan result)
	running := 0
	var res RandomResult[V]
	var err error
	for {
		for err == nil && len(idle) > 0 && more() {
			i := next
			next += step
			w := idle[len(idle)-1]
			idle = idle[:len(idle)-1]
			running++
			go func() {
				rng := rand.New(rand.NewPCG(uint64(o.Seed), uint64(i)))
				v, e := w.Schedule(ctx, &Chooser{Rng: rng, Index: i}, o.Depth)
				out := result{Found: Found[V]{Verdict: v, Index: i, At: time.Since(start)}, w: w, err: e}
				if e == nil && all && v != nil && ctx.Err() == nil {
					out.Verdict, out.err = Minimise(ctx, w, v)
				}
				results <- out
			}()
		}
		if running == 0 {
			break
		}
		x := <-results
		running--
		idle = append(idle, x.w)
		switch {
		case x.err != nil:
			if err == nil {
				err = x.err
			}
		case x.Verdict == nil:
		case all:
			res.Found = append(res.Found, x.Found)
		case !o.StopAtFirst:
			if k, isNew := o.Key(x.Verdict); isNew {
				if l, ok := lowest[k]; !ok || x.Index < l.Index {
					lowest[k] = x.Found
				}
			}
		case first == nil || x.Index < first.Index:
			f := x.Found
			first = &f
		}
		if x.err == nil {
			res.Schedules++
		}
	}
	res.Exhausted = all && err == nil && ctx.Err() == nil
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return res, err
	}
	if first != nil {
		res.Found = append(res.Found, *first)
	}
	for _, l := range lowest {
		res.Found = append(res.Found, l)
	}
	sort.SliceStable(res.Found, func(a, b int) bool { return res.Found[a].Index < res.Found[b].Index })
	return res, nil
}
