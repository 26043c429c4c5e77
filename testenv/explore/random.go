package explore

import (
	"context"
	"math/rand/v2"
	"slices"
	"sort"
	"time"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/search"
)

// randomSearch runs the random schedules of Options.Seed. Schedule i
// makes its choices from a source seeded with (Seed, i), so it is the
// same schedule whichever worker runs it, and whichever shard: a shard
// i/N runs the indices i, i+N, i+2N... Without Options.Schedules the
// search runs within its Budget and keeps, of each distinct violation
// (foundKey), the schedule of the lowest index, minimised after; with
// StopAtFirst it stops at the first violation: no index after it is
// started, the ones before it finish, and the violation of the lowest
// index is reported, the one a single worker finds. With Schedules,
// every index below it runs and every violation is minimised and
// reported once.
func (ex *explorer) randomSearch(ctx context.Context, workers []*explorer, res *Result) error {
	o := ex.o
	shard := o.Shard
	step := max(shard.Count, 1)
	all := o.Schedules > 0
	type result struct {
		i   int
		r   *run
		v   *Violation
		w   *explorer
		at  time.Duration
		err error
	}
	start := time.Now()
	next := shard.Index
	first := -1 // the lowest index found failing, without Schedules
	var firstRun *run
	var firstAt time.Duration
	more := func() bool {
		if all {
			return next < o.Schedules && ctx.Err() == nil
		}
		return ex.inBudget(ctx) && (first < 0 || next < first || !o.StopAtFirst)
	}
	lowest := map[string]result{} // without Schedules or StopAtFirst: by foundKey
	idle := slices.Clone(workers)
	results := make(chan result)
	running := 0
	var minimised []result
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
				c := &chooser{Chooser: search.Chooser{Rng: rng, Index: i}}
				if w.scale != nil {
					c.faults = newFaultPlan(rng, *w.scale)
				}
				r, e := w.schedule(ctx, c, o.Depth)
				out := result{i: i, r: r, w: w, at: time.Since(start), err: e}
				if e == nil && all && r.trace.failed != nil && ctx.Err() == nil {
					out.v, out.err = w.minimise(ctx, r)
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
		case x.r.trace.failed == nil:
		case all:
			x.v.FoundAfter, x.v.Schedules = x.at, x.i+1
			minimised = append(minimised, x)
		case !o.StopAtFirst:
			if k := foundKey(x.r.trace.failed); !ex.known[k] {
				if l, ok := lowest[k]; !ok || x.i < l.i {
					lowest[k] = x
				}
			}
		case first < 0 || x.i < first:
			first, firstRun, firstAt = x.i, x.r, x.at
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
		return err
	}
	if firstRun != nil {
		lowest[""] = result{i: first, r: firstRun, at: firstAt}
	}
	var fs []found
	for _, l := range lowest {
		fs = append(fs, found{r: l.r, at: l.at, schedules: l.i + 1})
	}
	sort.Slice(fs, func(a, b int) bool { return fs[a].schedules < fs[b].schedules })
	vs, err := ex.minimiseAll(ctx, fs)
	if err != nil {
		return err
	}
	sort.SliceStable(minimised, func(a, b int) bool { return minimised[a].i < minimised[b].i })
	seen := map[string]bool{}
	for _, f := range minimised {
		if k := f.v.Invariant + "\x00" + f.v.Seed; !seen[k] {
			seen[k] = true
			vs = append(vs, f.v)
		}
	}
	res.Violations = ranked(vs)
	if len(res.Violations) > 0 {
		res.Violation = res.Violations[0]
	}
	return nil
}
