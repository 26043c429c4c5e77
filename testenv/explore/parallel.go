package explore

import (
	"context"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/search"
)

// The parallel depth-first search. The serial search (depthFirst) runs
// one schedule after another: each follows a prefix of choices, then the
// first option of each new choice, and the next prefix is the deepest
// choice of the last schedule that has an option left. Every schedule is
// a task here: its prefix decides it, and its choices and their widths
// decide its children, the prefixes that branch off its own choices
// below its prefix. Which worker runs a task, and when, changes nothing of
// that tree, and tasks in the order of their prefixes are the serial
// schedules in their order.
//
// Pruning is where timing could decide: the serial search skips a state
// seen before, and "before" is the order of the schedules. Here each
// state's hash keeps the earliest position (in that order) at which any
// task met it; a task prunes at a state only when an earlier position has
// it, as the serial search would, and a task that met a state first in
// time but not in order is corrected when the result is decided: the
// schedules the serial search runs, and where it prunes them, are
// recomputed from the positions once every task before the violation has
// run. Tasks run in vain that way are only speculation; the verdict, the
// schedule reported and the count of schedules before it are the
// serial search's. This holds as far as the state hash holds (equal
// hashes, equal futures: docs/explore.md, Limits), as the serial search's
// pruning does.

// track is what a schedule of the parallel search records.
type track struct {
	// checks are the states met at its new choice points, in order.
	checks []check
	// failStep is the chosen step (depth: the drain) during which the
	// schedule first broke an invariant, if it broke one.
	failStep int
	broke    bool
	// prunedAt is the chosen step at which it was pruned, or -1.
	prunedAt int
	// cut are the bounds that cut its choices, first at chosen step
	// cutAt (deepen.go).
	cut   boundSet
	cutAt int
}

func (r *run) noteFailure(step int) {
	if r.trace.failed != nil && !r.track.broke {
		r.track.broke, r.track.failStep = true, step
	}
}

// pos is a point of the search in the serial order: the depth of its
// iteration, the choices made before it, and the chosen step (-1: a
// task's start).
type pos struct {
	depth int
	path  []int
	step  int
}

func (a pos) less(b pos) bool {
	if a.depth != b.depth {
		return a.depth < b.depth
	}
	if c := slices.Compare(a.path, b.path); c != 0 {
		return c < 0 // a proper prefix first: an ancestor comes first
	}
	return a.step < b.step
}

// check is a state met at a point of the search.
type check struct {
	p pos
	h uint64
}

// seenTable keeps, for each state hash, the earliest point met.
type seenTable struct {
	mu    sync.Mutex
	first map[uint64]pos
}

// visit records h met at p and reports whether an earlier point met it.
func (t *seenTable) visit(h uint64, p pos) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if e, ok := t.first[h]; ok && e.less(p) {
		return true
	}
	t.first[h] = p
	return false
}

// pruned reports whether the serial search prunes at c: an earlier point
// met its state.
func (t *seenTable) pruned(c check) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	e, ok := t.first[c.h]
	return ok && e.less(c.p)
}

// prune is the state check before chosen step d: true when the state was
// seen before (serially: earlier in time; in parallel: earlier in order).
func (ex *explorer) prune(r *run, depth, d int) bool {
	if ex.stopAt != nil {
		return d == *ex.stopAt
	}
	h := r.stateHash(depth - d)
	if ex.table == nil {
		if ex.seen[h] {
			return true
		}
		ex.seen[h] = true
		return false
	}
	p := pos{depth: depth, path: slices.Clone(r.trace.ch.Taken), step: d}
	r.track.checks = append(r.track.checks, check{p, h})
	return ex.table.visit(h, p)
}

// parallelSearch is the depth-first search on several workers (ex and
// its copies): it reads and writes ex's table of the states seen and
// keeps the serial search's order (the package comment above).
type parallelSearch struct {
	ex      *explorer
	workers []*explorer
}

// task is one schedule of the parallel search.
type task struct {
	p pos
	// inherited are the checks of the points before its prefix's last
	// choice, met by its ancestors.
	inherited []check
	// track is what its schedule recorded; r the schedule, kept only when
	// it broke an invariant.
	track
	r   *run
	w   *explorer
	err error
	// key is the violation it broke (foundKey), at when it ended.
	key string
	at  time.Duration
}

// children are the tasks that branch off t's choices below its prefix,
// as its schedule, r, made them.
func (t *task) children(r *run) []*task {
	var out []*task
	taken, widths := r.trace.ch.Taken, r.trace.ch.Widths
	for j := len(t.p.path); j < len(taken); j++ {
		inherited := slices.Clone(t.inherited)
		for _, c := range t.checks {
			if len(c.p.path) <= j {
				inherited = append(inherited, c)
			}
		}
		for x := taken[j] + 1; x < widths[j]; x++ {
			path := append(slices.Clone(taken[:j]), x)
			out = append(out, &task{p: pos{depth: t.p.depth, path: path, step: -1}, inherited: inherited})
		}
	}
	return out
}

// serialRun reports whether the serial search runs t: nothing on the way
// to its prefix was pruned.
func (p *parallelSearch) serialRun(t *task) bool {
	ex := p.ex
	for _, c := range t.inherited {
		if ex.table.pruned(c) {
			return false
		}
	}
	return true
}

// serialStop is the chosen step at which the serial search prunes t's
// schedule, or -1.
func (p *parallelSearch) serialStop(t *task) int {
	ex := p.ex
	for _, c := range t.checks {
		if len(c.p.path) >= len(t.p.path) && ex.table.pruned(c) {
			return c.p.step
		}
	}
	return -1
}

// depthFirst is the serial depthFirst on several workers (the package
// comment above says how it keeps the serial search's order).
// It counts in res the schedules the serial search runs and prunes, and
// apart the ones run in vain.
func (p *parallelSearch) depthFirst(ctx context.Context, res *Result) ([]found, error) {
	ex := p.ex
	var done []*task
	cands, exhausted, err := p.tasks(ctx, &done)
	res.Exhausted = exhausted
	var last *task
	if ex.o.StopAtFirst && len(cands) > 0 {
		last = cands[0]
	}
	counts := make([]int, len(cands)) // the serial schedules up to each
	for _, d := range done {
		if (last == nil || !last.p.less(d.p)) && p.serialRun(d) {
			res.Schedules++
			for i, c := range cands {
				if !c.p.less(d.p) {
					counts[i]++
				}
			}
			stop := p.serialStop(d)
			if stop >= 0 {
				res.Pruned++
			}
			if stop < 0 || d.cutAt < stop { // what the serial search ran of it
				res.cut |= d.cut
			}
		} else {
			res.Speculative++
		}
	}
	if err != nil {
		return nil, err
	}
	var fs []found
	for i, c := range cands {
		r, err := p.serialSchedule(ctx, c, p.serialStop(c))
		if err != nil {
			return nil, err
		}
		if r.trace.failed != nil {
			fs = append(fs, found{r: r, at: c.at, schedules: counts[i]})
		}
	}
	return fs, nil
}

// serialCands are the tasks of cands (in the serial order) that the
// serial search runs to their violation, the first of each violation.
func (p *parallelSearch) serialCands(cands []*task) []*task {
	ex := p.ex
	var out []*task
	seen := map[string]bool{}
	for _, t := range cands {
		if stop := p.serialStop(t); p.serialRun(t) && (stop < 0 || t.failStep < stop) && !seen[t.key] && !ex.known[t.key] {
			seen[t.key] = true
			out = append(out, t)
		}
	}
	return out
}

// tasks runs the tasks. It returns the serial search's first
// violating task (Options.StopAtFirst), or the first of each distinct
// violation, and whether the space was exhausted.
func (p *parallelSearch) tasks(ctx context.Context, donep *[]*task) ([]*task, bool, error) {
	ex := p.ex
	workers := p.workers
	start := ex.deadline.Add(-ex.o.Budget)
	var queue []*task
	for depth := 1; depth <= ex.o.Depth; depth++ {
		queue = append(queue, &task{p: pos{depth: depth, step: -1}})
	}
	idle := slices.Clone(workers)
	results := make(chan *task)
	var cands []*task
	running := 0
	var err error
	byPos := func(s []*task) { sort.Slice(s, func(i, j int) bool { return s[i].p.less(s[j].p) }) }
	for {
		for err == nil && len(idle) > 0 && len(queue) > 0 && ex.inBudget(ctx) {
			i := 0
			for ex.knobs.lastFirst && i+1 < len(queue) && (len(cands) == 0 || !cands[0].p.less(queue[i+1].p)) {
				i++ // tests: the latest task first, the serial order's opposite
			}
			t := queue[i]
			if ex.o.StopAtFirst && len(cands) > 0 && cands[0].p.less(t.p) {
				break // beyond the first violation: wait for it to be decided
			}
			queue = slices.Delete(queue, i, i+1)
			if !p.serialRun(t) {
				continue // under a state pruned since it was queued
			}
			t.w, idle = idle[len(idle)-1], idle[:len(idle)-1]
			running++
			go func() {
				t.r, t.err = t.w.schedule(ctx, &chooser{Chooser: &search.Chooser{Prefix: t.p.path}}, t.p.depth)
				results <- t
			}()
		}
		if running == 0 {
			if err != nil {
				return nil, false, err
			}
			if !ex.o.StopAtFirst {
				if len(queue) == 0 || !ex.inBudget(ctx) {
					return p.serialCands(cands), len(queue) == 0 && ctx.Err() == nil, nil
				}
				continue
			}
			// Decide the first violation, unless a task before it can run.
			for len(cands) > 0 && (len(queue) == 0 || !ex.inBudget(ctx) || !queue[0].p.less(cands[0].p)) {
				t := cands[0]
				if stop := p.serialStop(t); p.serialRun(t) && (stop < 0 || t.failStep < stop) {
					return []*task{t}, false, nil
				}
				cands = cands[1:] // pruned before it failed: not the serial search's
			}
			if len(cands) == 0 && (len(queue) == 0 || !ex.inBudget(ctx)) {
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
		*donep = append(*donep, t)
		t.track, t.at = t.r.track, time.Since(start)
		queue = append(queue, t.children(t.r)...)
		if t.broke && t.r.trace.failed != nil {
			t.key = foundKey(t.r.trace.failed)
		} else {
			t.broke = false
		}
		if !t.broke || !ex.o.StopAtFirst && slices.ContainsFunc(cands, func(c *task) bool { return c.key == t.key && c.r != nil && c.p.less(t.p) }) {
			// The serial search's order needs only its track; a violation
			// an earlier task broke too is run again if that one turns
			// out pruned (serialSchedule).
			t.r = nil
		}
		byPos(queue)
		if t.broke {
			cands = append(cands, t)
			byPos(cands)
		}
	}
}

// serialSchedule is t's schedule as the serial search ran it: t's own
// run, or, when the serial search prunes it at step stop where t ran on,
// the same schedule run again to there (what it broke after is not the
// serial search's).
func (p *parallelSearch) serialSchedule(ctx context.Context, t *task, stop int) (*run, error) {
	ex := p.ex
	if t.r != nil && (stop < 0 || t.prunedAt == stop) {
		return t.r, nil
	}
	if stop >= 0 {
		ex.stopAt = &stop
		defer func() { ex.stopAt = nil }()
	}
	return ex.schedule(ctx, &chooser{Chooser: &search.Chooser{Prefix: t.p.path}}, t.p.depth)
}

// workers are the explorers of the search's worlds: ex itself on the
// first, a copy on each other one, up to Options.Parallel.
func (ex *explorer) workers() []*explorer {
	worlds := ex.o.Backend.worlds()
	n := min(ex.o.Parallel, len(worlds))
	if ex.o.Replay != "" || n < 1 {
		n = 1
	}
	out := []*explorer{ex}
	if n == 1 {
		return out
	}
	if v := ex.knobs.visit; v != nil {
		var mu sync.Mutex
		ex.knobs.visit = func(r *run) {
			mu.Lock()
			defer mu.Unlock()
			v(r)
		}
	}
	ex.table = &seenTable{first: map[uint64]pos{}}
	for _, w := range worlds[1:n] {
		c := *ex
		c.o.Backend = w
		c.touched, c.seen, c.runs, c.pruned, c.last, c.fresh = nil, map[uint64]bool{}, 0, 0, nil, nil
		out = append(out, &c)
	}
	return out
}

func cleanupWorkers(workers []*explorer) {
	for _, w := range workers[1:] { // the first is Run's own, cleaned up by Run
		w.cleanup()
	}
}
