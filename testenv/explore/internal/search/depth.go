package search

import (
	"context"
	"slices"
	"sort"
	"time"
)

// The depth-first search, on one worker or several. Serially it runs one
// schedule after another: each follows a prefix of choices, then the
// first option of each new choice, and the next prefix is the deepest
// choice of the last schedule that has an option left. Every schedule is
// a task here: its prefix decides it, and its choices and their widths
// decide its children, the prefixes that branch off its own choices
// below its prefix. Which worker runs a task, and when, changes nothing of
// that tree, and tasks in the order of their prefixes (Point.Less) are the
// serial schedules in their order: one worker, which always runs the
// first task queued, is the serial search.
//
// Pruning is where timing could decide: the search skips a state seen
// before, and "before" is the serial order. Each state's hash keeps the
// earliest point (in that order) at which any task met it; a task prunes
// at a state only when an earlier point has it, as the serial search
// would, and a task that met a state first in time but not in order is
// corrected when the result is decided: the schedules the serial search
// runs, and where it prunes them, are recomputed from the points once
// every task before the failure has run. Tasks run in vain that way are
// only speculation (DepthResult.Speculative); the verdict, the schedule
// found and the count of schedules before it are the serial search's.
// This holds as far as the state hash holds (equal hashes, equal
// futures), as the serial search's pruning does.

// Depth is how a depth-first search runs: schedules of 1, 2, ... Depth
// chosen steps, while InBudget; StopAtFirst stops at the first failure,
// and without it Key is a verdict's defect and whether it is new. Found
// times are from Start. LastFirst (tests) starts, of the tasks that may
// start, the latest in the serial order first.
type Depth[V any] struct {
	Start       time.Time
	Depth       int
	StopAtFirst bool
	LastFirst   bool
	InBudget    func(context.Context) bool
	Key         func(*Verdict[V]) (key string, isNew bool)
}

// A DepthResult is what a depth-first search ran and found, as the
// serial search runs and finds it.
type DepthResult[V any] struct {
	// Found holds the first schedule of each new defect (StopAtFirst:
	// the first failing schedule), not minimised, in the serial order; a
	// Found's Index counts the schedules run before it.
	Found []Found[V]
	// Schedules and Pruned count the schedules the serial search runs
	// and prunes, Speculative the ones run beyond them.
	Schedules, Pruned, Speculative int
	// Cut are the bounds (the Runner's bits, Visit.Cut) that cut the
	// choices of the schedules the serial search runs.
	Cut uint8
	// Exhausted: every schedule up to Depth ran.
	Exhausted bool
}

// DepthFirst runs schedules with 1, 2, ... o.Depth chosen steps,
// depth-first over the choices, shortest first, on workers: the first
// failure is one of the shortest. It goes on past failures within the
// budget. Each schedule's Chooser carries its Visit, which the Runner
// asks whether to prune the schedule before each chosen step past its
// prefix, and tells where it broke, was pruned and was cut. On an error
// the result still counts the schedules run.
func DepthFirst[W Runner[V], V any](ctx context.Context, workers []W, o Depth[V]) (DepthResult[V], error) {
	s := &tree[W, V]{o: o, workers: workers, seen: &seen{first: map[uint64]Point{}}}
	var res DepthResult[V]
	cands, exhausted, err := s.tasks(ctx)
	res.Exhausted = exhausted
	var last *task[V]
	if o.StopAtFirst && len(cands) > 0 {
		last = cands[0]
	}
	counts := make([]int, len(cands)) // the serial schedules up to each
	for _, d := range s.done {
		if (last == nil || !last.p.Less(d.p)) && s.serialRun(d) {
			res.Schedules++
			for i, c := range cands {
				if !c.p.Less(d.p) {
					counts[i]++
				}
			}
			stop := s.serialStop(d)
			if stop >= 0 {
				res.Pruned++
			}
			if stop < 0 || d.v.CutAt < stop { // what the serial search ran of it
				res.Cut |= d.v.Cut
			}
		} else {
			res.Speculative++
		}
	}
	if err != nil {
		return res, err
	}
	for i, c := range cands {
		v, err := s.serialSchedule(ctx, c, s.serialStop(c))
		if err != nil {
			return res, err
		}
		if v != nil {
			res.Found = append(res.Found, Found[V]{Verdict: v, Index: counts[i] - 1, At: c.at})
		}
	}
	return res, nil
}

// tree is one depth-first search: its workers, the states its tasks
// met, and the tasks that ran.
type tree[W Runner[V], V any] struct {
	o       Depth[V]
	workers []W
	seen    *seen
	done    []*task[V]
}

// task is one schedule of the depth-first search.
type task[V any] struct {
	p Point
	// inherited are the checks of the points before its prefix's last
	// choice, met by its ancestors.
	inherited []check
	// c made its choices; its Visit is what the schedule recorded.
	c *Chooser
	v *Visit
	// verdict is what it broke, kept only when the result may need it;
	// key the defect (Depth.Key), isNew whether it is new.
	verdict *Verdict[V]
	key     string
	isNew   bool
	w       int
	err     error
	at      time.Duration
}

// children are the tasks that branch off t's choices below its prefix,
// as its schedule made them.
func (t *task[V]) children() []*task[V] {
	var out []*task[V]
	taken, widths := t.c.Taken, t.c.Widths
	for j := len(t.p.Path); j < len(taken); j++ {
		inherited := slices.Clone(t.inherited)
		for _, c := range t.v.checks {
			if len(c.p.Path) <= j {
				inherited = append(inherited, c)
			}
		}
		for x := taken[j] + 1; x < widths[j]; x++ {
			path := append(slices.Clone(taken[:j]), x)
			out = append(out, &task[V]{p: Point{Depth: t.p.Depth, Path: path, Step: -1}, inherited: inherited})
		}
	}
	return out
}

// serialRun reports whether the serial search runs t: nothing on the way
// to its prefix was pruned.
func (s *tree[W, V]) serialRun(t *task[V]) bool {
	for _, c := range t.inherited {
		if s.seen.pruned(c) {
			return false
		}
	}
	return true
}

// serialStop is the chosen step at which the serial search prunes t's
// schedule, or -1.
func (s *tree[W, V]) serialStop(t *task[V]) int {
	for _, c := range t.v.checks {
		if len(c.p.Path) >= len(t.p.Path) && s.seen.pruned(c) {
			return c.p.Step
		}
	}
	return -1
}

// serialCands are the tasks of cands (in the serial order) that the
// serial search runs to their failure, the first of each new defect.
func (s *tree[W, V]) serialCands(cands []*task[V]) []*task[V] {
	var out []*task[V]
	keys := map[string]bool{}
	for _, t := range cands {
		if stop := s.serialStop(t); s.serialRun(t) && (stop < 0 || t.v.FailStep < stop) && !keys[t.key] && t.isNew {
			keys[t.key] = true
			out = append(out, t)
		}
	}
	return out
}

// start runs t on worker w.
func (s *tree[W, V]) start(ctx context.Context, t *task[V], w int, results chan<- *task[V]) {
	t.w = w
	t.v = &Visit{depth: t.p.Depth, seen: s.seen, stop: -1, PrunedAt: -1}
	t.c = &Chooser{Prefix: t.p.Path, Visit: t.v}
	go func() {
		t.verdict, t.err = s.workers[w].Schedule(ctx, t.c, t.p.Depth)
		results <- t
	}()
}

// tasks runs the tasks. It returns the serial search's first failing
// task (StopAtFirst), or the first of each new defect, and whether the
// space was exhausted.
func (s *tree[W, V]) tasks(ctx context.Context) ([]*task[V], bool, error) {
	o := s.o
	var queue []*task[V]
	for depth := 1; depth <= o.Depth; depth++ {
		queue = append(queue, &task[V]{p: Point{Depth: depth, Step: -1}})
	}
	idle := make([]int, len(s.workers))
	for i := range idle {
		idle[i] = i
	}
	results := make(chan *task[V])
	var cands []*task[V]
	running := 0
	var err error
	byPos := func(ts []*task[V]) { sort.Slice(ts, func(i, j int) bool { return ts[i].p.Less(ts[j].p) }) }
	for {
		for err == nil && len(idle) > 0 && len(queue) > 0 && o.InBudget(ctx) {
			i := 0
			for o.LastFirst && i+1 < len(queue) && (len(cands) == 0 || !cands[0].p.Less(queue[i+1].p)) {
				i++ // tests: the latest task first, the serial order's opposite
			}
			t := queue[i]
			if o.StopAtFirst && len(cands) > 0 && cands[0].p.Less(t.p) {
				break // beyond the first failure: wait for it to be decided
			}
			queue = slices.Delete(queue, i, i+1)
			if !s.serialRun(t) {
				continue // under a state pruned since it was queued
			}
			w := idle[len(idle)-1]
			idle = idle[:len(idle)-1]
			running++
			s.start(ctx, t, w, results)
		}
		if running == 0 {
			if err != nil {
				return nil, false, err
			}
			if !o.StopAtFirst {
				if len(queue) == 0 || !o.InBudget(ctx) {
					return s.serialCands(cands), len(queue) == 0 && ctx.Err() == nil, nil
				}
				continue
			}
			// Decide the first failure, unless a task before it can run.
			for len(cands) > 0 && (len(queue) == 0 || !o.InBudget(ctx) || !queue[0].p.Less(cands[0].p)) {
				t := cands[0]
				if stop := s.serialStop(t); s.serialRun(t) && (stop < 0 || t.v.FailStep < stop) {
					return []*task[V]{t}, false, nil
				}
				cands = cands[1:] // pruned before it failed: not the serial search's
			}
			if len(cands) == 0 && (len(queue) == 0 || !o.InBudget(ctx)) {
				return nil, len(queue) == 0 && ctx.Err() == nil, nil
			}
			continue
		}
		t := <-results
		running--
		idle = append(idle, t.w)
		if t.err != nil {
			err = t.err
			continue
		}
		s.done = append(s.done, t)
		t.at = time.Since(o.Start)
		queue = append(queue, t.children()...)
		if t.v.Broke && t.verdict != nil {
			t.key, t.isNew = o.Key(t.verdict)
		} else {
			t.v.Broke = false
		}
		if !t.v.Broke || !o.StopAtFirst && slices.ContainsFunc(cands, func(c *task[V]) bool { return c.key == t.key && c.verdict != nil && c.p.Less(t.p) }) {
			// The serial order needs only its Visit; a failure an earlier
			// task met too is run again if that one turns out pruned
			// (serialSchedule).
			t.verdict = nil
		}
		byPos(queue)
		if t.v.Broke {
			cands = append(cands, t)
			byPos(cands)
		}
	}
}

// serialSchedule is t's verdict as the serial search ran it: t's own, or,
// when the serial search prunes it at step stop where t ran on, the same
// schedule run again to there (what it broke after is not the serial
// search's).
func (s *tree[W, V]) serialSchedule(ctx context.Context, t *task[V], stop int) (*Verdict[V], error) {
	if t.verdict != nil && (stop < 0 || t.v.PrunedAt == stop) {
		return t.verdict, nil
	}
	v := &Visit{depth: t.p.Depth, seen: s.seen, stop: stop, PrunedAt: -1}
	return s.workers[0].Schedule(ctx, &Chooser{Prefix: t.p.Path, Visit: v}, t.p.Depth)
}
